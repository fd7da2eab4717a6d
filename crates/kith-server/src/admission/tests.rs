use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use futures_util::FutureExt;

use super::*;

fn ip(last: u8) -> Source {
    Source::of(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
}

fn told(a: &Admitted) -> bool {
    a.evict.notified().now_or_never().is_some()
}

#[test]
fn one_address_is_refused_past_its_cap_once_the_pool_is_half_full() {
    let gate = Gate::new(10, 3);
    // With room to spare, one host may open more than its share (a driver warming
    // its pool)...
    for _ in 0..5 {
        gate.admit(ip(2)).expect("the pool is less than half full");
    }
    // ...but not once the pool is half full.
    assert_eq!(gate.admit(ip(2)).err(), Some(CloseReason::AddressMax));
    // Another address is not affected.
    gate.admit(ip(3)).expect("another address");
    assert_eq!(gate.pending(), 6);
}

#[test]
fn a_full_pool_evicts_the_oldest_of_the_busiest_address() {
    let gate = Gate::new(4, 4);
    let flood: Vec<_> = (0..4).map(|_| gate.admit(ip(2)).expect("room")).collect();
    // A newcomer from a quiet address takes the place of the flood's oldest.
    let newcomer = gate.admit(ip(9)).expect("evicts one of the flood");
    assert_eq!(gate.pending(), 4, "the cap holds");
    let evicted: Vec<bool> = flood.iter().map(told).collect();
    assert_eq!(evicted, [true, false, false, false], "the oldest is told");
    assert!(!told(&newcomer));
}

#[test]
fn a_connection_that_made_progress_gives_way_last() {
    let gate = Gate::new(4, 4);
    let client = gate.admit(ip(5)).expect("room");
    client.progress.store(true, Ordering::Release);
    let flood: Vec<_> = [6, 7, 8]
        .iter()
        .map(|a| gate.admit(ip(*a)).expect("room"))
        .collect();
    // Every address has one: the newcomer evicts a silent one, not the older client.
    gate.admit(ip(9)).expect("evicts");
    assert!(!told(&client), "the client that sent its HELLO stays");
    assert!(told(&flood[0]), "the oldest silent socket goes");
}

#[test]
fn eviction_never_turns_on_an_address_no_busier_than_the_newcomer() {
    let gate = Gate::new(4, 4);
    let entries: Vec<_> = [2, 2, 3, 3]
        .into_iter()
        .map(|last| gate.admit(ip(last)).expect("room"))
        .collect();
    // The newcomer's own address is as busy as any: refused.
    assert_eq!(
        gate.admit(ip(2)).err(),
        Some(CloseReason::UnauthenticatedMax)
    );
    // A new address takes from the busiest; of two as busy, the older's oldest.
    gate.admit(ip(4)).expect("evicts from a busier address");
    assert!(
        told(&entries[0]) && !told(&entries[2]),
        "127.0.0.2's oldest gave way"
    );
    gate.admit(ip(5)).expect("evicts again, now from 127.0.0.3");
    assert!(told(&entries[2]));
    // Every address has one: a new address still gets in (the oldest gives way),
    // an address that has one already does not.
    assert_eq!(
        gate.admit(ip(4)).err(),
        Some(CloseReason::UnauthenticatedMax)
    );
    gate.admit(ip(6))
        .expect("one socket each cannot lock a new address out");
    assert!(told(&entries[1]), "the oldest of all gave way");
}

#[test]
fn leaving_frees_the_place_and_an_evicted_entry_is_gone_already() {
    let gate = Gate::new(2, 2);
    let first = gate.admit(ip(2)).expect("room");
    assert!(gate.lock().remove(&ip(2), first.id));
    assert!(!gate.lock().remove(&ip(2), first.id), "removed once");
    assert_eq!(gate.pending(), 0);
    let second = gate.admit(ip(2)).expect("room again");
    gate.admit(ip(2)).expect("room");
    gate.admit(ip(4)).expect("evicts 127.0.0.2's oldest");
    assert!(
        !gate.lock().remove(&ip(2), second.id),
        "the evicted entry left when it was evicted"
    );
    assert_eq!(gate.pending(), 2);
}

#[test]
fn the_address_cap_is_never_above_the_pool() {
    let gate = Gate::new(2, 50);
    gate.admit(ip(2)).expect("room");
    gate.admit(ip(2)).expect("room");
    assert_eq!(gate.admit(ip(2)).err(), Some(CloseReason::AddressMax));
}

#[test]
fn an_ipv6_host_is_one_address_per_64_and_a_mapped_ipv4_is_its_ipv4() {
    let v6 = |last: u16| {
        Source::of(IpAddr::V6(Ipv6Addr::new(
            0x2001, 0xdb8, 0, 1, 0, 0, 0, last,
        )))
    };
    assert_eq!(v6(1), v6(0xffff), "one /64");
    let other = Source::of(IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 2, 0, 0, 0, 1)));
    assert_ne!(v6(1), other);
    let mapped = Source::of(IpAddr::V6(Ipv4Addr::new(127, 0, 0, 2).to_ipv6_mapped()));
    assert_eq!(mapped, ip(2));
    assert_ne!(
        ip(2),
        Source::of(IpAddr::V6(Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0x7f00, 2)))
    );
}

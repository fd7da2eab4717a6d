use std::net::{IpAddr, Ipv4Addr};

use super::*;

fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

#[test]
fn one_address_is_refused_past_its_cap() {
    let gate = Gate::new(10, 3);
    for _ in 0..3 {
        gate.admit(ip(2)).expect("under the address cap");
    }
    assert_eq!(gate.admit(ip(2)).err(), Some(CloseReason::AddressMax));
    // Another address is not affected.
    gate.admit(ip(3)).expect("another address");
    assert_eq!(gate.pending(), 4);
}

#[test]
fn a_full_pool_evicts_the_oldest_of_the_busiest_address() {
    let gate = Gate::new(4, 4);
    let flood: Vec<_> = (0..4).map(|_| gate.admit(ip(2)).expect("room")).collect();
    // A newcomer from a quiet address takes the place of the flood's oldest.
    let (_, newcomer) = gate.admit(ip(9)).expect("evicts one of the flood");
    assert_eq!(gate.pending(), 4, "the cap holds");
    let told: Vec<bool> = flood
        .iter()
        .map(|(_, n)| n.notified().now_or_never().is_some())
        .collect();
    assert_eq!(told, [true, false, false, false], "the oldest is told");
    assert!(newcomer.notified().now_or_never().is_none());
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
    let told = |i: usize| entries[i].1.notified().now_or_never().is_some();
    assert!(told(0) && !told(2), "127.0.0.2's oldest gave way");
    gate.admit(ip(5)).expect("evicts again, now from 127.0.0.3");
    assert!(told(2));
    // Every address has one: a new address still gets in (the oldest gives way),
    // an address that has one already does not.
    assert_eq!(
        gate.admit(ip(4)).err(),
        Some(CloseReason::UnauthenticatedMax)
    );
    gate.admit(ip(6))
        .expect("one socket each cannot lock a new address out");
    assert!(told(1), "the oldest of all gave way");
}

#[test]
fn leaving_frees_the_place_and_an_evicted_entry_is_gone_already() {
    let gate = Gate::new(2, 2);
    let (first, _) = gate.admit(ip(2)).expect("room");
    assert!(gate.lock().remove(&ip(2), first));
    assert!(!gate.lock().remove(&ip(2), first), "removed once");
    assert_eq!(gate.pending(), 0);
    let (second, _) = gate.admit(ip(2)).expect("room again");
    gate.admit(ip(2)).expect("room");
    gate.admit(ip(4)).expect("evicts 127.0.0.2's oldest");
    assert!(
        !gate.lock().remove(&ip(2), second),
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

use futures_util::FutureExt;

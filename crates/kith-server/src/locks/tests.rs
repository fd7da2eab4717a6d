use std::sync::mpsc;

use kith_core::{NodeId, RelId};

use super::*;

fn changes(nodes: &[u32]) -> WriteSet {
    let mut set = WriteSet::default();
    set.nodes.extend(nodes.iter().map(|n| NodeId(*n)));
    set
}

fn links(nodes: &[u32]) -> WriteSet {
    let mut set = WriteSet::default();
    set.links.extend(nodes.iter().map(|n| NodeId(*n)));
    set
}

fn blocked(acquired: Acquired) -> Blocked {
    match acquired {
        Acquired::Blocked(b) => b,
        Acquired::Held => panic!("expected to be blocked"),
    }
}

/// A wake that reports how it ended.
fn reporting() -> (Wake, mpsc::Receiver<Woken>) {
    let (send, receive) = mpsc::channel();
    (
        Box::new(move |w| send.send(w).expect("the test listens")),
        receive,
    )
}

fn later() -> Instant {
    Instant::now() + Duration::from_secs(60)
}

#[test]
fn a_change_waits_for_the_holder_and_runs_when_it_ends() {
    let locks = Arc::new(Locks::default());
    let (a, b) = (locks.owner(), locks.owner());
    assert!(matches!(
        locks.acquire(a.key(), &changes(&[1, 2])),
        Acquired::Held
    ));
    assert!(
        matches!(locks.acquire(a.key(), &changes(&[1])), Acquired::Held),
        "its own"
    );
    let waits = blocked(locks.acquire(b.key(), &changes(&[3, 2])));
    assert_eq!(waits.on, vec![a.key()]);
    // Nothing of b's set was taken: 3 is free for a third transaction.
    let c = locks.owner();
    assert!(matches!(
        locks.acquire(c.key(), &changes(&[3])),
        Acquired::Held
    ));
    drop(c);
    let (wake, woken) = reporting();
    locks.wait(waits, later(), wake);
    assert_eq!(locks.waiting(), 1);
    assert!(woken.try_recv().is_err(), "still waiting");
    drop(a);
    assert_eq!(woken.try_recv(), Ok(Woken::Released));
    assert_eq!(locks.waiting(), 0);
    assert!(matches!(
        locks.acquire(b.key(), &changes(&[3, 2])),
        Acquired::Held
    ));
}

#[test]
fn links_share_a_node_and_a_change_excludes_them() {
    let locks = Arc::new(Locks::default());
    let (a, b, c) = (locks.owner(), locks.owner(), locks.owner());
    assert!(matches!(
        locks.acquire(a.key(), &links(&[5])),
        Acquired::Held
    ));
    assert!(matches!(
        locks.acquire(b.key(), &links(&[5])),
        Acquired::Held
    ));
    let waits = blocked(locks.acquire(c.key(), &changes(&[5])));
    assert_eq!(waits.on, vec![a.key(), b.key()]);
    drop((a, b));
    assert!(matches!(
        locks.acquire(c.key(), &changes(&[5])),
        Acquired::Held
    ));
    let d = locks.owner();
    assert_eq!(
        blocked(locks.acquire(d.key(), &links(&[5]))).on,
        vec![c.key()]
    );
    let mut rel = WriteSet::default();
    rel.rels.insert(RelId(9));
    assert!(matches!(locks.acquire(d.key(), &rel), Acquired::Held));
    assert_eq!(blocked(locks.acquire(c.key(), &rel)).on, vec![d.key()]);
}

#[test]
fn a_wait_that_closes_a_cycle_is_refused_as_a_deadlock() {
    let locks = Arc::new(Locks::default());
    let (a, b) = (locks.owner(), locks.owner());
    assert!(matches!(
        locks.acquire(a.key(), &changes(&[1])),
        Acquired::Held
    ));
    assert!(matches!(
        locks.acquire(b.key(), &changes(&[2])),
        Acquired::Held
    ));
    let (wake_a, woken_a) = reporting();
    locks.wait(
        blocked(locks.acquire(a.key(), &changes(&[2]))),
        later(),
        wake_a,
    );
    let (wake_b, woken_b) = reporting();
    locks.wait(
        blocked(locks.acquire(b.key(), &changes(&[1]))),
        later(),
        wake_b,
    );
    assert_eq!(
        woken_b.try_recv(),
        Ok(Woken::Deadlock),
        "b closed the cycle"
    );
    assert!(woken_a.try_recv().is_err(), "a still waits");
    drop(b);
    assert_eq!(woken_a.try_recv(), Ok(Woken::Released));
}

#[test]
fn a_holder_gone_before_the_wait_wakes_it_at_once_and_late_waits_time_out() {
    let locks = Arc::new(Locks::default());
    let (a, b) = (locks.owner(), locks.owner());
    assert!(matches!(
        locks.acquire(a.key(), &changes(&[1])),
        Acquired::Held
    ));
    let waits = blocked(locks.acquire(b.key(), &changes(&[1])));
    drop(a);
    let (wake, woken) = reporting();
    locks.wait(waits, later(), wake);
    assert_eq!(woken.try_recv(), Ok(Woken::Released), "no lost wake-up");

    let c = locks.owner();
    assert!(matches!(
        locks.acquire(c.key(), &changes(&[7])),
        Acquired::Held
    ));
    let (wake, woken) = reporting();
    let deadline = later();
    locks.wait(
        blocked(locks.acquire(b.key(), &changes(&[7]))),
        deadline,
        wake,
    );
    locks.expire(Instant::now());
    assert!(woken.try_recv().is_err(), "not yet");
    locks.expire(deadline + Duration::from_millis(1));
    assert_eq!(woken.try_recv(), Ok(Woken::TimedOut));
    assert_eq!(locks.waiting(), 0);
}

use super::*;

fn basic(user: &str, password: &str) -> Credentials {
    Credentials::Basic {
        user: user.into(),
        password: password.into(),
    }
}

fn with_users(users: &[(&str, Role, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut file = UserFile::default();
    for (name, role, password) in users {
        file.add(name, *role, password).expect("add");
    }
    file.save(&UserFile::path_in(dir.path())).expect("save");
    let data = dir.path().to_owned();
    (dir, data)
}

#[test]
fn without_users_loopback_is_open_and_anything_else_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = Some(dir.path().to_owned());
    let open = Auth::new(AuthMode::Users, data.clone(), false).expect("loopback");
    assert_eq!(open.authenticate(&Credentials::None), Ok(Principal::OPEN));
    let refused = Auth::new(AuthMode::Users, data.clone(), true)
        .err()
        .expect("exposed");
    assert!(refused.contains("--auth none"), "{refused}");
    let none = Auth::new(AuthMode::None, data, true).expect("--auth none");
    assert_eq!(none.authenticate(&Credentials::None), Ok(Principal::OPEN));
}

#[test]
fn users_need_the_right_password_and_get_their_role() {
    let (_dir, data) = with_users(&[("ann", Role::Reader, "pw-ann")]);
    let auth = Auth::new(AuthMode::Users, Some(data), false).expect("auth");
    let ann = auth.authenticate(&basic("ann", "pw-ann")).expect("ann");
    assert_eq!((ann.user.as_deref(), ann.role), (Some("ann"), Role::Reader));
    assert!(
        auth.authenticate_fast(&basic("ann", "pw-ann")).is_some(),
        "cached"
    );
    for wrong in [basic("ann", "pw-bob"), basic("bob", "pw-ann")] {
        let e = auth.authenticate(&wrong).expect_err("refused");
        assert_eq!(e.code, Code::Unauthorized);
        assert!(
            e.message.contains("unknown user or wrong password"),
            "{}",
            e.message
        );
    }
    let e = auth
        .authenticate(&Credentials::None)
        .expect_err("no credentials");
    assert!(
        e.message.contains("requires authentication"),
        "{}",
        e.message
    );
}

#[test]
fn file_changes_apply_without_a_restart() {
    let (_dir, data) = with_users(&[("ann", Role::Writer, "one")]);
    let auth = Auth::new(AuthMode::Users, Some(data.clone()), true).expect("auth");
    assert!(auth.authenticate(&basic("ann", "one")).is_ok());
    let token = auth
        .issue_token(&auth.authenticate(&basic("ann", "one")).expect("ann"))
        .expect("token")
        .0;
    assert!(auth
        .authenticate(&Credentials::Bearer(token.clone()))
        .is_ok());
    let path = UserFile::path_in(&data);
    let mut file = UserFile::load(&path).expect("load");
    file.passwd("ann", "two").expect("passwd");
    file.save(&path).expect("save");
    assert!(
        auth.authenticate(&basic("ann", "one")).is_err(),
        "old password"
    );
    assert!(
        auth.authenticate(&basic("ann", "two")).is_ok(),
        "new password"
    );
    assert!(
        auth.authenticate(&Credentials::Bearer(token)).is_err(),
        "a token dies with its password"
    );
    // The last user removed from an exposed server: nobody, not everybody.
    file.remove("ann").expect("remove");
    file.save(&path).expect("save");
    let e = auth.authenticate(&Credentials::None).expect_err("closed");
    assert!(e.message.contains("no users are defined"), "{}", e.message);
    // A damaged file refuses everyone.
    std::fs::write(&path, "not toml [").expect("write");
    assert!(auth.authenticate(&basic("ann", "two")).is_err());
}

#[test]
fn roles_permit_in_order() {
    assert!(permit(Role::Reader, false, false).is_ok());
    let e = permit(Role::Reader, true, false).expect_err("reader writes");
    assert_eq!(e.code, Code::Forbidden);
    assert!(
        e.message.contains("`reader` may not write"),
        "{}",
        e.message
    );
    assert!(permit(Role::Writer, true, false).is_ok());
    assert!(permit(Role::Writer, true, true).is_err());
    assert!(permit(Role::Admin, true, true).is_ok());
}

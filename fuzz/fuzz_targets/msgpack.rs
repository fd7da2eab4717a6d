#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kith_fuzz::targets::codec::msgpack(data));

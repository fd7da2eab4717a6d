#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kith_fuzz::targets::storage_model::storage_model(data));

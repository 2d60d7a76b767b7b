//! `mettle-bindgen INPUT.wasm OUT_DIR NAME`: writes the JavaScript glue of the npm package's
//! WebAssembly, as `wasm-bindgen INPUT --target web --out-dir OUT_DIR --out-name NAME
//! --experimental-reset-state-function` would. CI builds this small binary instead of installing
//! wasm-bindgen-cli, whose test runner and HTTP client take minutes to compile
//! (crates/mettle-wasm/ci.sh).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out_dir, name] = args.as_slice() else {
        eprintln!("usage: mettle-bindgen INPUT.wasm OUT_DIR NAME");
        return ExitCode::from(2);
    };
    let mut b = wasm_bindgen_cli_support::Bindgen::new();
    // As the `wasm-bindgen` command sets them, with the reset function, and without the names and
    // producers sections (the `wasm` profile strips only debug info, so that wasm-bindgen can read
    // the module's `target_features`).
    b.input_path(input)
        .out_name(name)
        .typescript(true)
        .omit_default_module_path(false)
        .reset_state_function(true)
        .remove_name_section(true)
        .remove_producers_section(true);
    let done = b.web(true).and_then(|b| b.generate(out_dir));
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mettle-bindgen: {e:#}");
            ExitCode::FAILURE
        }
    }
}

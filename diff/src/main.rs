//! `ksem`: the semantics oracle's command line.

use clap::{Parser, Subcommand};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{self, Launch, RunResult};
use ksem_interp::{pretty, Error};
use std::process::ExitCode;

mod bench;

#[derive(Parser)]
#[command(
    name = "ksem",
    version,
    about = "Semantics oracle for Python-embedded GPU kernel languages"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a kernel on the reference interpreter and print every buffer's final bits.
    Run {
        /// The Triton source file.
        program: String,
        /// The launch spec (JSON).
        #[arg(long)]
        launch: String,
        /// Which @triton.jit function to run (default: the launch's "kernel", else the only root kernel).
        #[arg(long)]
        kernel: Option<String>,
        /// Print the result JSON instead of the readable summary.
        #[arg(long)]
        json: bool,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Loop iterations one program instance may run before ksem stops it.
        #[arg(long, default_value_t = 1 << 24)]
        max_loop_iterations: u64,
    },
    /// Print the typed program: every expression's dtype and shape at its line.
    Check {
        program: String,
        /// The launch spec; needed for argument dtypes and constexpr values.
        #[arg(long)]
        launch: Option<String>,
        #[arg(long)]
        kernel: Option<String>,
    },
    /// Measure the interpreter's throughput (elements per second).
    Bench {
        /// Repetitions per measurement (the best is reported).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
    },
}

fn read(path: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.to_string(),
        message: e.to_string(),
    })
}

fn read_launch(path: &str) -> Result<Launch, Error> {
    launch::parse_launch(&read(path)?).map_err(|message| Error::Launch {
        path: path.to_string(),
        message,
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested (but valid) Python builds deep syntax trees; give the
    // parser and the tree's destruction room instead of overflowing the stack.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || dispatch(cli.cmd))
        .expect("spawn the main worker");
    let outcome = match worker.join() {
        Ok(o) => o,
        Err(_) => {
            eprintln!("ksem: internal error (a bug in ksem; please report it with the input)");
            return ExitCode::from(3);
        }
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprint!("{}", e.render());
            ExitCode::from(2)
        }
    }
}

fn dispatch(cmd: Cmd) -> Result<ExitCode, Error> {
    match cmd {
        Cmd::Run {
            program,
            launch,
            kernel,
            json,
            threads,
            max_loop_iterations,
        } => {
            let src = read(&program)?;
            let l = read_launch(&launch)?;
            let opts = RunOptions {
                max_loop_iterations,
                threads,
            };
            let r = ksem_interp::run_source(&program, &src, &l, kernel.as_deref(), &opts)?;
            if json {
                println!("{}", r.to_json());
            } else {
                print!("{}", summary(&r));
            }
            for u in &r.ub {
                eprintln!(
                    "{program}:{}:{}: undefined behaviour: {}: {} (program ({},{},{}), element {:?})",
                    u.line, u.col, u.kind, u.message, u.program[0], u.program[1], u.program[2], u.element
                );
            }
            Ok(if r.ub.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Check {
            program,
            launch,
            kernel,
        } => {
            let src = read(&program)?;
            match launch {
                Some(lp) => {
                    let l = read_launch(&lp)?;
                    let k = ksem_interp::elaborate_source(&program, &src, &l, kernel.as_deref())?;
                    print!("{}", pretty::kernel(&k));
                }
                None => {
                    let m = ksem_interp::triton::Module::parse(&program, &src).map_err(|diag| {
                        Error::Source {
                            file: program.clone(),
                            src: src.clone(),
                            diag,
                        }
                    })?;
                    println!(
                        "{program}: parsed; @triton.jit functions: {}",
                        m.func_order.join(", ")
                    );
                    println!("pass --launch LAUNCH.json to elaborate a kernel and print its types");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Bench { repeat } => {
            bench::run(repeat);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The readable form of a result: each buffer's values and bits.
fn summary(r: &RunResult) -> String {
    let mut s = format!("kernel {} on {}\n", r.kernel, r.backend);
    for b in &r.buffers {
        s.push_str(&format!(
            "{} ({}, {} elements{})\n",
            b.name,
            b.dtype.json_name(),
            b.bits.len(),
            if b.inexact.iter().any(|&x| x) {
                ", some inexact"
            } else {
                ""
            }
        ));
        let shown = b.bits.len().min(32);
        for (i, &bits) in b.bits.iter().take(shown).enumerate() {
            s.push_str(&format!(
                "  [{i}] {} {}{}\n",
                ksem_interp::eval::format_value(b.dtype, bits),
                launch::hex_bits(b.dtype, bits),
                if b.inexact[i] { " (inexact)" } else { "" }
            ));
        }
        if shown < b.bits.len() {
            s.push_str(&format!(
                "  … {} more (use --json for all)\n",
                b.bits.len() - shown
            ));
        }
    }
    if r.ub.is_empty() {
        s.push_str("no undefined behaviour\n");
    }
    s
}

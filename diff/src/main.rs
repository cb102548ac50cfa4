//! `ksem`: the semantics oracle's command line.

use clap::{Parser, Subcommand};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{self, Launch, LaunchLimits, RunResult};
use ksem_interp::{pretty, Error};
use std::process::ExitCode;

/// The allocator: the interpreter and the front ends allocate many small
/// values, and mimalloc serves them in a fraction of glibc's time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use ksem_diff::backend::Backend;
use ksem_diff::{backend, bench, corpus, fuzz, reduce, report, triage};

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

/// The caps on a launch's size (`--max-programs`, `--max-buffer-elems`):
/// a launch over them is refused with a clear error (exit 2) before
/// anything is allocated.
#[derive(clap::Args, Clone, Copy)]
struct LimitArgs {
    /// Program instances (blocks) a launch may ask for.
    #[arg(long, default_value_t = LaunchLimits::default().max_programs)]
    max_programs: u64,
    /// Buffer elements a launch may ask for, all buffers together.
    #[arg(long, default_value_t = LaunchLimits::default().max_buffer_elems)]
    max_buffer_elems: u64,
}

impl LimitArgs {
    fn limits(self) -> LaunchLimits {
        LaunchLimits {
            max_programs: self.max_programs,
            max_buffer_elems: self.max_buffer_elems,
        }
    }
}

#[derive(Subcommand)]
enum CorpusCmd {
    /// Run every case of DIR (default corpus/triton) and compare with its expected bits; exit 1 on any regression.
    Check {
        dir: Option<String>,
        /// Backends to replay on (default: interp, plus host, plus cuda where a GPU is present).
        #[arg(long)]
        backends: Option<String>,
    },
    /// Union fuzz findings (e.g. one directory per shard of a campaign) into
    /// OUT, keeping one finding per signature (duplicates collapse).
    Merge {
        out: String,
        #[arg(required = true)]
        dirs: Vec<String>,
    },
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
        #[command(flatten)]
        limits: LimitArgs,
        /// Print the result JSON instead of the readable summary.
        #[arg(long)]
        json: bool,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Loop iterations one program instance may run before ksem stops it.
        #[arg(long, default_value_t = 1 << 24)]
        max_loop_iterations: u64,
        /// Where to run it: interp (the reference), host (the CUDA lowering on the CPU), cuda (the GPU), triton (real Triton on the GPU, via tools/triton_run.py; its Python from $KSEM_TRITON_PYTHON), numba (real numba-cuda on the GPU, via tools/numba_run.py), tilelang (real TileLang's C target on the CPU, via tools/tilelang_run.py; its Python from $KSEM_TILELANG_PYTHON) or hidet (real Hidet's cpu_kernel build, via tools/hidet_run.py; $KSEM_HIDET_PYTHON).
        #[arg(long, default_value = "interp")]
        backend: String,
    },
    /// Print the CUDA C source the lowering generates for a kernel.
    EmitCuda {
        program: String,
        #[arg(long)]
        launch: String,
        #[arg(long)]
        kernel: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Run a kernel on two backends and report the first differing elements of each buffer.
    Diff {
        program: String,
        #[arg(long)]
        launch: String,
        #[arg(long)]
        kernel: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
        /// Two backends, e.g. interp,cuda (default: interp,cuda with a GPU, else interp,host).
        #[arg(long)]
        backends: Option<String>,
    },
    /// Generate programs and compare two backends on each (differential fuzzing).
    Fuzz {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of programs.
        #[arg(long, conflicts_with = "time")]
        count: Option<u64>,
        /// Run for this long (e.g. 60s, 2m).
        #[arg(long)]
        time: Option<String>,
        #[arg(long)]
        backends: Option<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Write every mismatch (reduced) here in the corpus format, with the
        /// campaign's progress, summary and checkpoint.
        #[arg(long)]
        out: Option<String>,
        /// Go on with the campaign whose checkpoint is in --out (stopped or
        /// killed at any point): the same seed, dialect, shard, backends;
        /// --count is the whole campaign's, --time this run's.
        #[arg(long, requires = "out")]
        resume: bool,
        /// How often --out's progress line and checkpoint are written
        /// (e.g. 500ms, 2s, 1m); a shorter period loses less to a kill.
        #[arg(long, default_value = "2s", requires = "out")]
        checkpoint_every: String,
        /// Keep mismatches as found, without reducing them.
        #[arg(long)]
        no_reduce: bool,
        /// The language of the generated programs: triton, cudapy, tilelang or hidet.
        #[arg(long, default_value = "triton")]
        dialect: String,
        /// This worker's part I/N of the campaign: the programs whose index
        /// is I modulo N (N workers 0/N … N-1/N check exactly what one would).
        #[arg(long)]
        shard: Option<String>,
        /// The GPUs the cuda backend spreads over (e.g. 0,1): worker k uses
        /// the (k mod n)-th; give --jobs a multiple of their number.
        #[arg(long, value_delimiter = ',')]
        devices: Option<Vec<usize>>,
        /// Input sets per program: its own launch and K-1 others over the
        /// same compiled kernel (other buffer contents); the summary counts
        /// checks beside programs.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        inputs: u32,
        /// Against a real system, generate the operations its documented
        /// divergences cover all the same (left out by default).
        #[arg(long)]
        divergent_ops: bool,
        /// Swarm testing: each program keeps a random half of the
        /// generator's feature switches, chosen from (seed, index).
        #[arg(long)]
        swarm: bool,
    },
    /// Reduce a case on which two backends disagree, keeping the disagreement.
    Reduce {
        program: String,
        #[arg(long)]
        launch: String,
        #[arg(long)]
        backends: Option<String>,
        /// Output directory for the reduced case (corpus format).
        #[arg(long, default_value = "reduced")]
        out: String,
        /// Runners of a real system kept at once (candidates are tried in
        /// batches of this many).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Stop after this long (e.g. 120s, 5m), keeping the smallest case so far.
        #[arg(long)]
        time: Option<String>,
        /// Most candidates tried.
        #[arg(long, default_value_t = 2000)]
        max_tries: usize,
        /// Write one JSON line per candidate (pass, verdict) here.
        #[arg(long)]
        log: Option<String>,
    },
    /// Triage the findings of a directory (as `fuzz --out` writes them): the
    /// kind of each difference, the layer it blames (by rerunning it where
    /// this machine can) and its signature; prints the buckets as a table.
    Triage {
        dir: String,
        /// Print the findings and buckets as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Write a docs/bugs-style folder (a draft: program, standalone
        /// script for Triton, README) under this directory for every finding
        /// against a real system that no documented divergence explains.
        #[arg(long)]
        bug_report: Option<String>,
    },
    /// Write one self-contained HTML page for a campaign: one DIR per worker
    /// (as `fuzz --out` writes it) or merged; programs/s over time,
    /// mismatches per triage bucket, features exercised, and every finding
    /// with both backends' bits side by side.
    Report {
        #[arg(required = true)]
        dirs: Vec<String>,
        /// The page to write.
        #[arg(long, default_value = "report.html")]
        out: String,
    },
    /// Replay a corpus directory against its expected results.
    Corpus {
        #[command(subcommand)]
        cmd: CorpusCmd,
    },
    /// Print the typed program: every expression's dtype and shape at its line.
    Check {
        program: String,
        /// The launch spec; needed for argument dtypes and constexpr values.
        #[arg(long)]
        launch: Option<String>,
        #[arg(long)]
        kernel: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Write generated program INDEX of campaign SEED (source and launch) to DIR.
    Gen {
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        index: u64,
        #[arg(long, default_value = ".")]
        out: String,
        /// The language: triton, cudapy, tilelang or hidet.
        #[arg(long, default_value = "triton")]
        dialect: String,
        /// The program as a campaign against a real system generates it
        /// (`fuzz --backends interp,tilelang`), leaving out what is known to differ.
        #[arg(long)]
        real_peer: bool,
        /// With --real-peer: keep the operations of documented divergences.
        #[arg(long)]
        divergent_ops: bool,
        /// The program as a `fuzz --swarm` campaign generates it.
        #[arg(long)]
        swarm: bool,
    },
    /// Measure the interpreter's throughput (work items per second) on the
    /// kernels of tools/bench/, single-thread and on all cores, beside
    /// Triton's interpreter (TRITON_INTERPRET=1) when Python has triton.
    Bench {
        /// Repetitions per measurement (the best is reported).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Only these kernels (vector_add, softmax, layer_norm, matmul, hash).
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// The Python that runs Triton's interpreter.
        #[arg(long, default_value = "python3")]
        python: String,
        /// Do not run Triton's interpreter.
        #[arg(long)]
        no_peer: bool,
        /// Timed Triton interpreter launches per kernel (after one untimed).
        #[arg(long, default_value_t = 1)]
        peer_runs: usize,
        /// Benchmark the lowered vector add, softmax and layer norm on the GPU instead (with --only: some of them), checked against the interpreter.
        #[arg(long)]
        gpu: bool,
        /// Benchmark differential fuzzing instead: programs/s and CPU time a
        /// program (ksem and the compilers it runs) per dialect and --jobs.
        #[arg(long)]
        fuzz: bool,
        /// With --fuzz: the backends compared.
        #[arg(long, default_value = "interp,host")]
        backends: String,
        /// With --fuzz: the dialects (default: all four).
        #[arg(long, value_delimiter = ',')]
        dialects: Vec<String>,
        /// With --fuzz: the numbers of jobs (default: 1 and all cores).
        #[arg(long, value_delimiter = ',')]
        jobs: Vec<usize>,
        /// With --fuzz: programs a campaign.
        #[arg(long, default_value_t = 384)]
        count: u64,
        /// With --fuzz: the first campaign's seed (default: from the clock,
        /// so that no campaign meets the host build's cache).
        #[arg(long)]
        seed: Option<u64>,
    },
}

fn read(path: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.to_string(),
        message: e.to_string(),
    })
}

fn read_launch(path: &str, limits: LimitArgs) -> Result<Launch, Error> {
    launch::parse_launch_with(&read(path)?, &limits.limits()).map_err(|message| Error::Launch {
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
            limits,
            json,
            threads,
            max_loop_iterations,
            backend,
        } => {
            let src = read(&program)?;
            let l = read_launch(&launch, limits)?;
            let opts = RunOptions {
                max_loop_iterations,
                threads,
                ..RunOptions::default()
            };
            let backend = Backend::parse(&backend).map_err(usage)?;
            let k = ksem_interp::elaborate_source(&program, &src, &l, kernel.as_deref())?;
            let r = match backend {
                Backend::Interp => {
                    ksem_interp::eval::run(&k, &l, &opts).map_err(|diag| Error::Source {
                        file: program.clone(),
                        src: src.clone(),
                        diag,
                    })?
                }
                b => b
                    .run_file(&program, &launch, kernel.as_deref(), &k, &l, &opts)
                    .map_err(|m| Error::Launch {
                        path: program.clone(),
                        message: format!("{b}: {m}"),
                    })?,
            };
            if json {
                println!("{}", r.to_json());
            } else {
                if let Some(note) =
                    ksem_interp::frontend::run_note(&program, &src, &l, kernel.as_deref())
                {
                    println!("{note}");
                }
                print!("{}", summary(&r));
            }
            for u in &r.ub {
                eprintln!("{}", ksem_interp::render::ub_headline(&program, u));
                eprint!("{}", ksem_interp::render::ub_report(&program, &src, u));
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
            limits,
        } => {
            let src = read(&program)?;
            match launch {
                Some(lp) => {
                    let l = read_launch(&lp, limits)?;
                    let k = ksem_interp::elaborate_source(&program, &src, &l, kernel.as_deref())?;
                    print!("{}", pretty::kernel(&k));
                }
                None => {
                    let m = ksem_interp::frontend::triton::Module::parse(&program, &src).map_err(
                        |diag| Error::Source {
                            file: program.clone(),
                            src: src.clone(),
                            diag,
                        },
                    )?;
                    println!(
                        "{program}: parsed; @triton.jit functions: {}",
                        m.func_order.join(", ")
                    );
                    println!("pass --launch LAUNCH.json to elaborate a kernel and print its types");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::EmitCuda {
            program,
            launch,
            kernel,
            limits,
        } => {
            let src = read(&program)?;
            let l = read_launch(&launch, limits)?;
            let k = ksem_interp::elaborate_source(&program, &src, &l, kernel.as_deref())?;
            print!("{}", ksem_gpu::emit_cuda(&k));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Diff {
            program,
            launch,
            kernel,
            limits,
            backends,
        } => {
            let src = read(&program)?;
            let l = read_launch(&launch, limits)?;
            let pair = backend_pair(backends.as_deref())?;
            let k = ksem_interp::elaborate_source(&program, &src, &l, kernel.as_deref())?;
            let opts = RunOptions::default();
            let run = |b: Backend| {
                b.run_file(&program, &launch, kernel.as_deref(), &k, &l, &opts)
                    .map_err(|m| Error::Launch {
                        path: program.clone(),
                        message: format!("{b}: {m}"),
                    })
            };
            let (a, b) = (run(pair.0)?, run(pair.1)?);
            let c = ksem_interp::compare::compare(&a, &b, 10);
            print!("{}", ksem_interp::compare::report(&a, &b, &c));
            Ok(if c.is_match() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Fuzz {
            seed,
            count,
            time,
            backends,
            jobs,
            out,
            resume,
            checkpoint_every,
            no_reduce,
            dialect,
            shard,
            devices,
            inputs,
            divergent_ops,
            swarm,
        } => {
            let dialect = parse_dialect(&dialect)?;
            let time = time
                .map(|t| parse_duration(&t))
                .transpose()
                .map_err(usage)?;
            let count = if count.is_none() && time.is_none() {
                Some(1000)
            } else {
                count
            };
            let backends = backend_pair(backends.as_deref())?;
            let mut o = fuzz::run::Options {
                seed,
                count,
                time,
                backends,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                out: out.map(std::path::PathBuf::from),
                config: fuzz::gen::Config {
                    dialect,
                    real_peer: backends.0.peer().is_some() || backends.1.peer().is_some(),
                    divergent_ops,
                    swarm,
                    ..Default::default()
                },
                reduce: !no_reduce,
                shard: match shard.as_deref() {
                    Some(t) => parse_shard(t).map_err(usage)?,
                    None => (0, 1),
                },
                devices: check_devices(devices, backends)?,
                resume: None,
                inputs,
                checkpoint_every: parse_duration(&checkpoint_every).map_err(usage)?,
            };
            if resume {
                let dir = o.out.as_deref().expect("clap requires --out");
                o.resume = Some(fuzz::checkpoint::load(dir, &o).map_err(usage)?);
            }
            let s = fuzz::progress::run_with_progress(&o);
            for (i, e) in &s.error_samples {
                eprintln!("error: program {i}: {e}");
            }
            for (i, u) in &s.ub_samples {
                eprintln!("ub_skipped: program {i}: {u}");
            }
            for (i, path, inexact) in &s.found {
                let what = if *inexact {
                    "mismatch (inexact elements only)"
                } else {
                    "mismatch"
                };
                match path {
                    Some(p) => eprintln!("{what}: program {i} -> {}", p.display()),
                    None => eprintln!(
                        "{what}: program {i} (ksem gen --seed {seed} --index {i} writes it)"
                    ),
                }
            }
            println!("{}", s.to_json(&o));
            Ok(if s.mismatches == 0 && s.errors == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Triage {
            dir,
            json,
            bug_report,
        } => {
            let (found, mut errors) =
                triage::triage_dir(std::path::Path::new(&dir), backend::gpu_present());
            if let Some(out) = &bug_report {
                for f in found.iter().filter(|f| ksem_diff::bugreport::reportable(f)) {
                    match ksem_diff::bugreport::write(
                        std::path::Path::new(&dir),
                        f,
                        std::path::Path::new(out),
                    ) {
                        Ok(p) => eprintln!("{}: {}", f.name, p.display()),
                        Err(e) => errors.push(e),
                    }
                }
            }
            if json {
                println!("{}", triage::to_json(&found, &errors));
            } else {
                print!("{}", triage::table(&found));
                for e in &errors {
                    eprintln!("error: {e}");
                }
            }
            Ok(if errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            })
        }
        Cmd::Report { dirs, out } => {
            let dirs: Vec<std::path::PathBuf> = dirs.iter().map(std::path::PathBuf::from).collect();
            let campaigns =
                report::write(&dirs, std::path::Path::new(&out), backend::gpu_present()).map_err(
                    |message| Error::Io {
                        path: "ksem report".into(),
                        message,
                    },
                )?;
            let findings: usize = campaigns.iter().map(|c| c.findings.len()).sum();
            println!(
                "{out}: {} directories, {findings} findings",
                campaigns.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Reduce {
            program,
            launch,
            backends,
            out,
            jobs,
            time,
            max_tries,
            log,
        } => {
            let src = read(&program)?;
            let text = read(&launch)?;
            let l: serde_json::Value = serde_json::from_str(&text).map_err(|e| Error::Launch {
                path: launch.clone(),
                message: e.to_string(),
            })?;
            let pair = backend_pair(backends.as_deref())?;
            let budget = reduce::Budget {
                max_tries,
                max_time: time
                    .map(|t| parse_duration(&t))
                    .transpose()
                    .map_err(usage)?,
            };
            let reduced = reduce::BackendPair::with_jobs(pair, jobs)
                .and_then(|mut o| reduce::reduce_with(&src, &l, &mut o, budget));
            match reduced {
                None => {
                    eprintln!("{program}: {} and {} agree (or the case does not run cleanly); nothing to reduce", pair.0, pair.1);
                    Ok(ExitCode::from(2))
                }
                Some(r) => {
                    let name = std::path::Path::new(&program)
                        .file_stem()
                        .map_or("case".into(), |s| s.to_string_lossy().to_string());
                    let prov = format!("reduced by `ksem reduce {program}` ({} steps, {} candidates tried); expected = {}", r.steps, r.tried, r.a.backend);
                    let path = fuzz::save::write_case(
                        std::path::Path::new(&out),
                        &format!("{name}_reduced"),
                        &r.source,
                        &r.launch,
                        &r.a,
                        &r.b,
                        prov,
                    )
                    .map_err(|e| Error::Io {
                        path: out.clone(),
                        message: e.to_string(),
                    })?;
                    if let Some(log) = &log {
                        let lines: Vec<String> = r.log.iter().map(|j| j.to_string()).collect();
                        std::fs::write(log, lines.join("\n") + "\n").map_err(|e| Error::Io {
                            path: log.clone(),
                            message: e.to_string(),
                        })?;
                    }
                    println!("{}", path.display());
                    eprintln!(
                        "{}",
                        serde_json::json!({"steps": r.steps, "tried": r.tried,
                            "before": r.before.to_json(), "after": r.after.to_json()})
                    );
                    print!("{}", r.source);
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
        Cmd::Corpus {
            cmd: CorpusCmd::Merge { out, dirs },
        } => {
            let dirs: Vec<std::path::PathBuf> = dirs.iter().map(std::path::PathBuf::from).collect();
            let m =
                triage::merge(std::path::Path::new(&out), &dirs).map_err(|message| Error::Io {
                    path: out.clone(),
                    message,
                })?;
            for e in &m.errors {
                eprintln!("error: {e}");
            }
            println!(
                "{}",
                serde_json::json!({"read": m.read, "kept": m.kept.len(), "findings": m.kept, "errors": m.errors.len()})
            );
            Ok(if m.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            })
        }
        Cmd::Corpus {
            cmd: CorpusCmd::Check { dir, backends },
        } => corpus::check(
            dir.as_deref().unwrap_or("corpus/triton"),
            backends.as_deref(),
        ),
        Cmd::Gen {
            seed,
            index,
            out,
            dialect,
            real_peer,
            divergent_ops,
            swarm,
        } => {
            let config = fuzz::gen::Config {
                dialect: parse_dialect(&dialect)?,
                real_peer,
                divergent_ops,
                swarm,
                ..Default::default()
            };
            let p = fuzz::gen::generate(&config, seed, index);
            let base = std::path::Path::new(&out).join(format!("fuzz_{seed}_{index}"));
            let write = |ext: &str, text: String| {
                let path = base.with_extension(ext);
                std::fs::write(&path, text).map_err(|e| Error::Io {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })
            };
            write("py", p.source)?;
            write(
                "json",
                serde_json::to_string_pretty(&p.launch).expect("json"),
            )?;
            println!("{}", base.with_extension("py").display());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Bench {
            repeat,
            only,
            python,
            no_peer,
            peer_runs,
            gpu,
            fuzz,
            backends,
            dialects,
            jobs,
            count,
            seed,
        } => {
            if fuzz {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                let dialects = if dialects.is_empty() {
                    ["triton", "tilelang", "hidet", "cudapy"]
                        .map(String::from)
                        .to_vec()
                } else {
                    dialects
                };
                let seed = seed.unwrap_or_else(|| {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(1, |d| d.as_secs())
                });
                fuzz::bench::run(&fuzz::bench::FuzzBench {
                    backends: backend_pair(Some(&backends))?,
                    dialects: dialects
                        .iter()
                        .map(|d| parse_dialect(d))
                        .collect::<Result<_, _>>()?,
                    jobs: if jobs.is_empty() {
                        let mut j = vec![1, cores];
                        j.dedup();
                        j
                    } else {
                        jobs
                    },
                    count,
                    seed,
                });
            } else if gpu {
                bench::run_gpu(100, &only).map_err(usage)?;
            } else {
                bench::run(&bench::BenchOptions {
                    repeat,
                    only,
                    python: (!no_peer).then_some(python),
                    peer_runs,
                })
                .map_err(usage)?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A `--dialect` argument.
fn parse_dialect(s: &str) -> Result<ksem_interp::frontend::Dialect, Error> {
    ksem_interp::frontend::Dialect::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = ksem_diff::registry::BUNDLES
            .iter()
            .map(|b| b.dialect.name())
            .collect();
        let (last, first) = names.split_last().expect("dialects");
        usage(format!(
            "unknown --dialect {s:?} (choose {} or {last})",
            first.join(", ")
        ))
    })
}

fn usage(message: String) -> Error {
    Error::Launch {
        path: "ksem".into(),
        message,
    }
}

/// `--devices`: only with the cuda backend, each device the driver sees
/// (default: device 0).
fn check_devices(
    devices: Option<Vec<usize>>,
    backends: (Backend, Backend),
) -> Result<Vec<usize>, Error> {
    let Some(devices) = devices else {
        return Ok(vec![0]);
    };
    if devices.is_empty() {
        return Err(usage("--devices needs at least one device".into()));
    }
    if backends.0 != Backend::Cuda && backends.1 != Backend::Cuda {
        return Err(usage(
            "--devices spreads the cuda backend; this campaign does not use it".into(),
        ));
    }
    let n = ksem_gpu::cuda::device_count().map_err(|e| usage(e.to_string()))?;
    if let Some(&d) = devices.iter().find(|&&d| d >= n) {
        return Err(usage(format!(
            "--devices {d}: the driver sees {n} CUDA device(s)"
        )));
    }
    Ok(devices)
}

fn backend_pair(s: Option<&str>) -> Result<(Backend, Backend), Error> {
    match s {
        Some(s) => Backend::parse_pair(s).map_err(usage),
        None => Ok(Backend::default_pair()),
    }
}

/// `60s`, `2m`, `1h` or plain seconds.
/// `I/N` with 0 ≤ I < N.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard takes I/N with 0 <= I < N (e.g. 0/4), got {s:?}");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let (num, mult) = match s.chars().last() {
        Some('s') if s.ends_with("ms") => (&s[..s.len() - 2], 1e-3),
        Some('s') => (&s[..s.len() - 1], 1.0),
        Some('m') => (&s[..s.len() - 1], 60.0),
        Some('h') => (&s[..s.len() - 1], 3600.0),
        _ => (s, 1.0),
    };
    let v: f64 = num
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0 && v * mult < 1e9)
        .ok_or_else(|| format!("bad duration {s:?} (use e.g. 500ms, 60s, 2m)"))?;
    Ok(std::time::Duration::from_secs_f64(v * mult))
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

//! The C++ compiler of the host build, found once per process: `$CXX`, else
//! `clang++`, else the Clang inside Zig (`zig clang`: `$KSEM_ZIG`, `zig` on
//! the path, or Python's `ziglang` package from `pip install ziglang`), else
//! `c++` or `g++`. Clang first: it compiles a batch of fuzzer kernels in
//! less than half of g++'s time (docs/benchmarks.md, "Seventh pass"), with the
//! same results (every build's results are compared bit for bit).

use crate::GpuError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Which compiler a command is, as far as precompiled headers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompilerKind {
    /// GCC: `.gch` beside the header.
    Gcc,
    /// Clang: `.pch` beside the header.
    Clang,
    /// Anything else: no precompiled header, no runtime library.
    Other,
}

/// A C++ compiler command: a program and the arguments every call starts with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Compiler {
    /// The program to run (`g++`, `/usr/bin/clang++`, `…/ziglang/zig`).
    pub program: String,
    /// Arguments before the call's own (`clang -target … -resource-dir …` for Zig).
    pub args: Vec<String>,
    /// What kind of compiler it is.
    pub kind: CompilerKind,
}

impl Compiler {
    /// A command running this compiler, its leading arguments given.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args);
        c
    }

    /// The compiler as one would type it.
    pub fn display(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The host build's compiler (see the module's doc); `$CXX` may hold a
/// program and its leading arguments (`zig clang`).
pub fn compiler() -> Result<Compiler, GpuError> {
    static FOUND: Mutex<Option<(Option<String>, Compiler)>> = Mutex::new(None);
    let cxx = std::env::var("CXX").ok().filter(|c| !c.trim().is_empty());
    let mut found = FOUND.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((for_cxx, c)) = found.as_ref() {
        if *for_cxx == cxx {
            return Ok(c.clone());
        }
    }
    let c = match &cxx {
        Some(words) => from_words(words),
        None => discover().ok_or_else(|| {
            GpuError::HostCompile(
                "no C++ compiler found (tried $CXX, clang++, zig (pip install ziglang), c++, g++); install one or set CXX"
                    .into(),
            )
        })?,
    };
    *found = Some((cxx, c.clone()));
    Ok(c)
}

/// The compiler `$CXX` names: its first word the program, the rest leading arguments.
fn from_words(words: &str) -> Compiler {
    let mut w = words.split_whitespace().map(str::to_string);
    let program = w.next().unwrap_or_default();
    let args: Vec<String> = w.collect();
    let kind = kind_of(&program, &args);
    Compiler {
        program,
        args,
        kind,
    }
}

/// The first compiler of the search order that runs here.
fn discover() -> Option<Compiler> {
    if runs("clang++", &[]) {
        return Some(from_words("clang++"));
    }
    if let Some(z) = zig() {
        return Some(z);
    }
    ["c++", "g++"]
        .into_iter()
        .find(|c| runs(c, &[]))
        .map(from_words)
}

/// Whether `program args --version` runs.
fn runs(program: &str, args: &[String]) -> bool {
    Command::new(program)
        .args(args)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Zig's Clang, where Zig is found: `$KSEM_ZIG`, `zig` on the path, or the
/// `ziglang` package of `python3`.
fn zig() -> Option<Compiler> {
    let program = std::env::var("KSEM_ZIG")
        .ok()
        .filter(|z| !z.is_empty())
        .or_else(|| runs("zig", &["version".into()]).then(|| "zig".to_string()))
        .or_else(python_ziglang)?;
    let lib = zig_lib_dir(&program)?;
    let c = Compiler {
        program,
        args: zig_clang_args(&lib),
        kind: CompilerKind::Clang,
    };
    runs(&c.program, &c.args).then_some(c)
}

/// The leading arguments that make `zig` a Clang for this machine: its
/// `clang` subcommand (Zig's own driver, `zig c++`, adds its caching and a
/// libc++ build and costs several times more), a glibc target and the
/// directory of Clang's builtin headers.
fn zig_clang_args(lib: &Path) -> Vec<String> {
    vec![
        "clang".into(),
        "-target".into(),
        format!("{}-linux-gnu", std::env::consts::ARCH),
        "-resource-dir".into(),
        lib.display().to_string(),
    ]
}

/// Zig's library directory (it holds `include/`, Clang's builtin headers).
fn zig_lib_dir(zig: &str) -> Option<PathBuf> {
    let out = Command::new(zig).arg("env").output().ok()?;
    let dir = PathBuf::from(field(&String::from_utf8_lossy(&out.stdout), "lib_dir")?);
    dir.join("include").is_dir().then_some(dir)
}

/// The string value of `key` in `zig env`'s output (ZON, `.lib_dir = "…"`,
/// or JSON, `"lib_dir": "…"`, as Zig versions print it).
fn field<'a>(env: &'a str, key: &str) -> Option<&'a str> {
    let rest = &env[env.find(key)? + key.len()..];
    let rest = &rest[rest.find(['=', ':'])? + 1..];
    let rest = &rest[rest.find('"')? + 1..];
    Some(&rest[..rest.find('"')?])
}

/// The `zig` binary of Python's `ziglang` package, if `python3` has it.
fn python_ziglang() -> Option<String> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))",
        ])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && Path::new(&path).is_file()).then_some(path)
}

/// The kind of the compiler `program args`, from its `--version`.
fn kind_of(program: &str, args: &[String]) -> CompilerKind {
    Command::new(program)
        .args(args)
        .arg("--version")
        .output()
        .map_or(CompilerKind::Other, |o| {
            let v = String::from_utf8_lossy(&o.stdout);
            if v.contains("clang") {
                CompilerKind::Clang
            } else if v.contains("Free Software Foundation") {
                CompilerKind::Gcc
            } else {
                CompilerKind::Other
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cxx_may_hold_leading_arguments() {
        let c = from_words("  g++   -m64 ");
        assert_eq!(c.program, "g++");
        assert_eq!(c.args, vec!["-m64".to_string()]);
        assert_eq!(c.display(), "g++ -m64");
    }

    #[test]
    fn reads_the_library_directory_of_either_zig_env_format() {
        let zon = ".{\n    .zig_exe = \"/z/zig\",\n    .lib_dir = \"/z/lib\",\n}";
        assert_eq!(field(zon, "lib_dir"), Some("/z/lib"));
        let json = "{\n \"zig_exe\": \"/z/zig\",\n \"lib_dir\": \"/y/lib\"\n}";
        assert_eq!(field(json, "lib_dir"), Some("/y/lib"));
        assert_eq!(field(json, "std_dir"), None);
    }

    #[test]
    fn zig_runs_as_clang_for_a_glibc_target() {
        let a = zig_clang_args(Path::new("/z/lib"));
        assert_eq!(a[0], "clang");
        assert!(a.iter().any(|x| x.ends_with("-linux-gnu")));
        assert_eq!(
            a[a.len() - 2..],
            ["-resource-dir".to_string(), "/z/lib".to_string()]
        );
    }
}

//! Loop fusion of a tile body's text: consecutive element-wise statements
//! over tiles of the same size, at the same nesting, become one slot loop.
//!
//! Each statement the lowering emits is its own `KSEM_FOR(n)` loop; a loop
//! costs the host compiler at `-O0` about as much as four runtime calls
//! (docs/benchmarks.md, "Fifth pass"), and the fuzzer's programs are
//! chains of them. Fusing statements A; B (every element of A, then every
//! element of B) into one loop (A and B at slot j, then at slot j+1, ...) is
//! exact when each reads and writes tile arrays only at its own slot `[j]`
//! and neither touches memory another element could see: no stores, no
//! atomics, no shared memory, no barrier. Loads may be fused: nothing in a
//! group writes memory. The uniform constants the lowering declares between
//! two such statements (`const T t = e;` over uniform values) move before
//! the loop: the loop's statements write only tile elements.

use std::fmt::Write as _;

/// A statement that may join a fused loop: its indentation, tile size, the
/// declaration of its target (if the line declares it) and the assignment,
/// with the line's trailing comment.
struct Fusable<'a> {
    indent: &'a str,
    n: &'a str,
    decl: Option<&'a str>,
    assign: &'a str,
    comment: &'a str,
}

/// `code` with runs of fusable statements (same indentation and size) in
/// one `KSEM_FOR` each; every other line unchanged.
pub(super) fn loops(code: &str) -> String {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = fusable(lines[i]) else {
            out.push_str(lines[i]);
            out.push('\n');
            i += 1;
            continue;
        };
        let (indent, n) = (first.indent, first.n);
        let mut group = vec![first];
        let mut hoisted: Vec<&str> = Vec::new();
        let mut next = i + 1;
        loop {
            // uniform constants between two statements go before the loop
            let mut k = next;
            while lines.get(k).is_some_and(|l| hoistable(l, indent)) {
                k += 1;
            }
            match lines.get(k).and_then(|l| fusable(l)) {
                Some(f) if f.indent == indent && f.n == n => {
                    hoisted.extend(&lines[next..k]);
                    group.push(f);
                    next = k + 1;
                }
                _ => break,
            }
        }
        i = next;
        for h in hoisted {
            out.push_str(h);
            out.push('\n');
        }
        emit(&mut out, &group);
    }
    out
}

/// Whether `line` (at `indent`) declares a uniform constant from uniform
/// values only (`const T t = e;`, `e` reading no tile and no memory a
/// statement could write), which may move before a fused loop: the loop's
/// statements write only tile elements.
fn hoistable(line: &str, indent: &str) -> bool {
    let Some(body) = line.strip_prefix(indent) else {
        return false;
    };
    let stmt = body.find("  // ").map_or(body, |p| &body[..p]);
    stmt.starts_with("const ")
        && stmt.ends_with(';')
        && stmt.contains(" = ")
        && !stmt.contains(['[', '{', '}'])
        && !EFFECTS.iter().any(|e| stmt.contains(e))
        && !stmt.contains("ksem_ld<")
}

/// Calls whose effects other elements or threads could observe.
const EFFECTS: [&str; 4] = ["ksem_st<", "ksem_atomic", "ksem_smem", "__syncthreads"];

/// Writes `group` as one loop (or its single statement as it was).
fn emit(out: &mut String, group: &[Fusable]) {
    let g = &group[0];
    if group.len() == 1 {
        let decl = g.decl.map(|d| format!("{d} ")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{}{decl}KSEM_FOR({}) {}{}",
            g.indent, g.n, g.assign, g.comment
        );
        return;
    }
    for s in group {
        if let Some(d) = s.decl {
            let _ = writeln!(out, "{}{d}{}", s.indent, s.comment);
        }
    }
    // (the loop's lines name its first and last statement's source lines)
    let _ = writeln!(out, "{}KSEM_FOR({}) {{{}", g.indent, g.n, g.comment);
    for s in group {
        let _ = writeln!(out, "{}  {}{}", s.indent, s.assign, s.comment);
    }
    let last = group.last().map_or("", |s| s.comment);
    let _ = writeln!(out, "{}}}{last}", g.indent);
}

/// `line` as a fusable statement: `[T t[KSEM_SLOTS(n)]; ]KSEM_FOR(n) x[j] = e;`
/// where `e` indexes arrays only at `[j]` and has no side effect another
/// element could observe.
fn fusable(line: &str) -> Option<Fusable<'_>> {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    let (stmt, comment) = match body.find("  // ") {
        Some(p) => body.split_at(p),
        None => (body, ""),
    };
    let (decl, rest) = match stmt.find("; KSEM_FOR(") {
        Some(p) => (Some(&stmt[..p + 1]), &stmt[p + 2..]),
        None => (None, stmt),
    };
    let rest = rest.strip_prefix("KSEM_FOR(")?;
    let close = rest.find(')')?;
    let (n, assign) = (&rest[..close], rest[close + 1..].strip_prefix(' ')?);
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(d) = decl {
        let slots = format!("[KSEM_SLOTS({n})];");
        if !d.ends_with(&slots) || d.contains(['{', '}', '=']) {
            return None;
        }
    }
    let (target, rhs) = assign.split_once(" = ")?;
    let name = target.strip_suffix("[j]")?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let rhs = rhs.strip_suffix(';')?;
    let only_slot_j = rhs
        .match_indices('[')
        .all(|(p, _)| rhs[p..].starts_with("[j]"));
    if !only_slot_j || rhs.contains(['{', '}', ';']) || EFFECTS.iter().any(|e| rhs.contains(e)) {
        return None;
    }
    Some(Fusable {
        indent,
        n,
        decl,
        assign,
        comment,
    })
}

#[cfg(test)]
mod tests {
    use super::loops;

    #[test]
    fn consecutive_elementwise_statements_share_a_loop() {
        let code = "  KSEM_FOR(16) a[j] = b[j];  // line 1:1\n  ku64 t3[KSEM_SLOTS(16)]; KSEM_FOR(16) t3[j] = (m[j] != 0 ? ksem_ld<KU64>(ksem_m, p[j]) : 0x0ull);  // line 2:1\n  KSEM_FOR(16) c[j] = ksem_iadd<KI32>(a[j], t3[j]);  // line 3:1\n";
        let want = "  ku64 t3[KSEM_SLOTS(16)];  // line 2:1\n  KSEM_FOR(16) {  // line 1:1\n    a[j] = b[j];  // line 1:1\n    t3[j] = (m[j] != 0 ? ksem_ld<KU64>(ksem_m, p[j]) : 0x0ull);  // line 2:1\n    c[j] = ksem_iadd<KI32>(a[j], t3[j]);  // line 3:1\n  }  // line 3:1\n";
        assert_eq!(loops(code), want);
    }

    #[test]
    fn uniform_constants_between_statements_move_before_the_loop() {
        let code = "  KSEM_FOR(4) a[j] = b[j];  // line 1:1\n  const ku64 t1 = ksem_cvt<KF32, KF64>(0x0ull, false, false);  // line 2:1\n  KSEM_FOR(4) c[j] = ksem_fadd<KF64>(a[j], t1);  // line 2:1\n  const ku64 t2 = ksem_ld<KF64>(ksem_m, p);  // line 3:1\n  KSEM_FOR(4) d[j] = t2;  // line 3:1\n";
        let want = "  const ku64 t1 = ksem_cvt<KF32, KF64>(0x0ull, false, false);  // line 2:1\n  KSEM_FOR(4) {  // line 1:1\n    a[j] = b[j];  // line 1:1\n    c[j] = ksem_fadd<KF64>(a[j], t1);  // line 2:1\n  }  // line 2:1\n  const ku64 t2 = ksem_ld<KF64>(ksem_m, p);  // line 3:1\n  KSEM_FOR(4) d[j] = t2;  // line 3:1\n";
        assert_eq!(loops(code), want);
    }

    #[test]
    fn other_sizes_indents_and_cross_element_reads_stay_apart() {
        let code = [
            "  KSEM_FOR(16) a[j] = b[j];  // line 1:1",
            "  KSEM_FOR(8) c[j] = d[j];  // line 2:1",
            "  KSEM_FOR(8) e[j] = s[KSEM_I];  // line 3:1",
            "  KSEM_FOR(8) f[j] = ksem_atomic<KI32>(ksem_m, p[j], 0, v[j], 0, false);  // line 4:1",
            "    KSEM_FOR(8) g[j] = h[j];  // line 5:1",
            "  KSEM_FOR(8) if (m[j] != 0) ksem_st<KU16>(ksem_m, p[j], v[j], true);  // line 6:1",
            "  KSEM_FOR(8) s[KSEM_I] = x[j];  // line 7:1",
            "",
        ]
        .join("\n");
        assert_eq!(loops(&code), code);
    }
}

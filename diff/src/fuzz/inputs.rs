//! More input sets for one generated program (`fuzz --inputs K`): the same
//! kernel (same shapes, scalars and constexprs, so one compiled kernel
//! serves them all) over other buffer contents. Input set 0 is the
//! program's own launch; set `j` redraws every input buffer from a
//! generator fixed by `(seed, index, j)`: edge-biased bits where the launch
//! spells bits out, another seed where it asks for random contents.
//! Buffers the program only writes (no contents given) and small fixed
//! ones (`"data"`: the atomics' slots) stay as they are.

use super::rng::Rng;
use super::safe;
use ksem_interp::dtype::DType;
use ksem_interp::launch::hex_bits;
use serde_json::{json, Value as Json};

/// The launches of input sets `0..k` of a program whose launch is `launch`
/// (`k` at least 1). `finite_nan` replaces NaN inputs by 1.0, as the
/// generators do for real systems (`Config::real_peer`).
pub fn input_sets(launch: &Json, seed: u64, index: u64, k: u32, finite_nan: bool) -> Vec<Json> {
    let mut out = vec![launch.clone()];
    for j in 1..k.max(1) as u64 {
        let mut rng = Rng::new(seed ^ j.wrapping_mul(0x9E37_79B9_7F4A_7C15), index);
        let mut l = launch.clone();
        if let Some(args) = l["args"].as_object_mut() {
            for buf in args.values_mut().filter_map(|a| a.get_mut("buffer")) {
                redraw(buf, &mut rng, finite_nan);
            }
        }
        out.push(l);
    }
    out
}

/// New contents for one buffer spec (nothing for a non-buffer argument).
fn redraw(buf: &mut Json, rng: &mut Rng, finite_nan: bool) {
    let Some(obj) = buf.as_object_mut() else {
        return;
    };
    if let Some(seed) = obj.get_mut("init").and_then(|i| i.get_mut("random")) {
        if seed.get("seed").is_some() {
            seed["seed"] = json!(rng.next() % 1_000_000);
        }
        return;
    }
    let Some(d) = obj
        .get("dtype")
        .and_then(|d| d.as_str())
        .and_then(DType::from_name)
    else {
        return;
    };
    if let Some(bits) = obj.get_mut("bits").and_then(|b| b.as_array_mut()) {
        for b in bits.iter_mut() {
            *b = json!(hex_bits(d, safe::input_bits(rng, d, finite_nan)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::float;

    fn launch() -> Json {
        json!({"kernel": "k", "grid": [2], "args": {
            "x": {"buffer": {"dtype": "float32", "bits": ["0x3f800000", "0x0", "0x80000000", "0x7f800000"]}},
            "r": {"buffer": {"dtype": "int32", "len": 8, "init": {"random": {"seed": 5, "low": -3, "high": 3}}}},
            "acc": {"buffer": {"dtype": "int64", "data": [0, 0, 0, 0]}},
            "out": {"buffer": {"dtype": "int32", "len": 4}},
            "n": {"scalar": {"dtype": "int32", "value": 4}},
            "B": {"constexpr": 4}}})
    }

    /// Set 0 is the launch itself; the others keep everything but the
    /// inputs' contents (so one compiled kernel runs them all), differ from
    /// each other, and are the same on every call.
    #[test]
    fn sets_vary_only_input_contents_deterministically() {
        let l = launch();
        let sets = input_sets(&l, 3, 17, 4, false);
        assert_eq!(sets.len(), 4);
        assert_eq!(sets[0], l);
        for s in &sets[1..] {
            let mut same = s.clone();
            same["args"]["x"]["buffer"]["bits"] = l["args"]["x"]["buffer"]["bits"].clone();
            same["args"]["r"]["buffer"]["init"]["random"]["seed"] = json!(5);
            assert_eq!(same, l, "only the inputs' contents change");
            assert_eq!(s["args"]["r"]["buffer"]["init"]["random"]["low"], -3);
            assert_eq!(
                s["args"]["x"]["buffer"]["bits"].as_array().unwrap().len(),
                4
            );
        }
        assert_ne!(sets[1], sets[2]);
        assert_ne!(sets[1]["args"]["r"], l["args"]["r"]);
        assert_eq!(input_sets(&l, 3, 17, 4, false), sets);
        assert_ne!(input_sets(&l, 3, 18, 4, false)[1], sets[1]);
    }

    /// With a real system as a backend NaN inputs become 1.0, as in the
    /// generators.
    #[test]
    fn finite_nan_leaves_no_nan_input() {
        let l = json!({"args": {"x": {"buffer": {"dtype": "float16", "bits": vec!["0x0"; 256]}}}});
        for s in input_sets(&l, 1, 2, 8, true) {
            for b in s["args"]["x"]["buffer"]["bits"].as_array().unwrap() {
                let x =
                    u64::from_str_radix(b.as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
                assert!(!float::to_f64(DType::F16, x).is_nan());
            }
        }
    }
}

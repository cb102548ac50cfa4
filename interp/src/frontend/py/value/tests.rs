//! The value rules against CPython. Every expected value was printed by
//! CPython 3.11.7 on the development machine (`python3 -c
//! 'print(EXPR)'`, or the exception's message for a raising one).

use super::compare::{compare, py_eq, py_is};
use super::ops::{binop, builtin, index, len, repr};
use super::{NoExtra, PyValue};
use crate::frontend::py::num::PyError;
use rustpython_parser::ast::{CmpOp, Operator};

type V = PyValue<NoExtra>;

fn t(items: Vec<V>) -> V {
    PyValue::Tuple(items)
}

fn s(x: &str) -> V {
    PyValue::Str(x.into())
}

#[test]
fn tuples_order_by_their_first_unequal_pair() {
    let (i, f) = (V::int, V::float);
    // (1, 2) > (1,) -> True: equal prefix, the longer is greater
    assert_eq!(
        compare(CmpOp::Gt, &t(vec![i(1), i(2)]), &t(vec![i(1)])),
        Ok(Some(true))
    );
    // (float("nan"),) < (1,) -> False: nan != 1 decides, and nan < 1 is False
    assert_eq!(
        compare(CmpOp::Lt, &t(vec![f(f64::NAN)]), &t(vec![i(1)])),
        Ok(Some(false))
    );
    // (1, 2) == (1.0, 2) -> True
    assert_eq!(
        py_eq(&t(vec![i(1), i(2)]), &t(vec![f(1.0), i(2)])),
        Some(true)
    );
    // (1,) < ("a",) -> TypeError: '<' not supported between instances of 'int' and 'str'
    assert_eq!(
        compare(CmpOp::Lt, &t(vec![i(1)]), &t(vec![s("a")])),
        Err(PyError::Type(
            "'<' not supported between instances of 'int' and 'str'".into()
        ))
    );
}

#[test]
fn identity_holds_for_singletons_and_small_ints() {
    // None is None -> True; True is 1 -> False; 5 is 5 -> True (small-int cache)
    assert_eq!(py_is(&V::None, &V::None), Some(true));
    assert_eq!(py_is(&V::bool(true), &V::int(1)), Some(false));
    assert_eq!(py_is(&V::int(5), &V::int(5)), Some(true));
    // 300 is 300: depends on how the two were made; ksem does not guess
    assert_eq!(py_is(&V::int(300), &V::int(300)), None);
}

#[test]
fn membership() {
    // "b" in "abc" -> True; 1 in (1.0, 2) -> True
    assert_eq!(compare(CmpOp::In, &s("b"), &s("abc")), Ok(Some(true)));
    assert_eq!(
        compare(CmpOp::In, &V::int(1), &t(vec![V::float(1.0), V::int(2)])),
        Ok(Some(true))
    );
    // 1 in "a" -> TypeError: 'in <string>' requires string as left operand, not int
    assert_eq!(
        compare(CmpOp::In, &V::int(1), &s("a")),
        Err(PyError::Type(
            "'in <string>' requires string as left operand, not int".into()
        ))
    );
    // "a" in 1 -> TypeError: argument of type 'int' is not iterable
    assert_eq!(
        compare(CmpOp::In, &s("a"), &V::int(1)),
        Err(PyError::Type(
            "argument of type 'int' is not iterable".into()
        ))
    );
}

#[test]
fn sequences_concatenate_repeat_index_and_have_a_len() {
    let one = t(vec![V::int(1)]);
    // (1,) + 1 -> TypeError: can only concatenate tuple (not "int") to tuple
    assert_eq!(
        binop(Operator::Add, &one, &V::int(1)),
        Some(Err(PyError::Type(
            "can only concatenate tuple (not \"int\") to tuple".into()
        )))
    );
    // (1,) * 1.5 -> TypeError: can't multiply sequence by non-int of type 'float'
    assert_eq!(
        binop(Operator::Mult, &one, &V::float(1.5)),
        Some(Err(PyError::Type(
            "can't multiply sequence by non-int of type 'float'".into()
        )))
    );
    // (1,) * -3 -> ()
    assert_eq!(
        binop(Operator::Mult, &one, &V::int(-3)),
        Some(Ok(t(vec![])))
    );
    // "héllo"[1] -> 'é'; len("héllo") -> 5
    assert_eq!(index(&s("h\u{e9}llo"), &V::int(1)), Ok(s("\u{e9}")));
    assert_eq!(len(&s("h\u{e9}llo")), Ok(5));
    // (1,)[False] -> 1 (a bool is an int index)
    assert_eq!(index(&one, &V::bool(false)), Ok(V::int(1)));
    // len(5) -> TypeError: object of type 'int' has no len()
    assert_eq!(
        len(&V::int(5)),
        Err(PyError::Type("object of type 'int' has no len()".into()))
    );
    // (1,)["a"] -> TypeError: tuple indices must be integers or slices, not str
    assert_eq!(
        index(&one, &s("a")),
        Err(PyError::Type(
            "tuple indices must be integers or slices, not str".into()
        ))
    );
}

#[test]
fn conversions_of_strings() {
    let call = |f: &str, x: V| builtin(f, &[x]);
    // int("+5") -> 5; int(" 7 ") -> 7; float("1_0.5") -> 10.5; float("-Infinity") -> -inf
    assert_eq!(call("int", s("+5")), Some(Ok(V::int(5))));
    assert_eq!(call("int", s(" 7 ")), Some(Ok(V::int(7))));
    assert_eq!(call("float", s("1_0.5")), Some(Ok(V::float(10.5))));
    assert_eq!(
        call("float", s("-Infinity")),
        Some(Ok(V::float(f64::NEG_INFINITY)))
    );
    // int("1__0"), int("_1"), int("1_") -> ValueError: invalid literal for int() with base 10: '…'
    for bad in ["1__0", "_1", "1_"] {
        assert_eq!(
            call("int", s(bad)),
            Some(Err(PyError::Value(format!(
                "invalid literal for int() with base 10: '{bad}'"
            ))))
        );
    }
    // max(()) -> ValueError: max() arg is an empty sequence
    assert_eq!(
        call("max", t(vec![])),
        Some(Err(PyError::Value("max() arg is an empty sequence".into())))
    );
    // repr("it's") -> "it's"; repr("a\\b") -> 'a\\b'
    assert_eq!(repr("it's"), "\"it's\"");
    assert_eq!(repr("a\\b"), "'a\\\\b'");
}

fn l(items: Vec<V>) -> V {
    PyValue::List(items)
}

/// A list is a sequence of its own kind (CPython 3.11.7's answers in the
/// comments): never equal to a tuple, concatenated only with a list,
/// ordered only against a list; repeated, indexed, counted and searched as
/// a tuple is.
#[test]
fn lists_are_their_own_kind() {
    let i = V::int;
    let type_err = |m: &str| PyError::Type(m.into());
    // [1] == (1,) -> False; [1] != (1,) -> True; [1, 2] == [1.0, 2] -> True
    assert_eq!(py_eq(&l(vec![i(1)]), &t(vec![i(1)])), Some(false));
    assert_eq!(
        compare(CmpOp::NotEq, &l(vec![i(1)]), &t(vec![i(1)])),
        Ok(Some(true))
    );
    assert_eq!(
        py_eq(&l(vec![i(1), i(2)]), &l(vec![V::float(1.0), i(2)])),
        Some(true)
    );
    // [1, 2] * 2 -> [1, 2, 1, 2]; 2 * [3] -> [3, 3]; [] * 3 -> []
    assert_eq!(
        binop(Operator::Mult, &l(vec![i(1), i(2)]), &i(2)),
        Some(Ok(l(vec![i(1), i(2), i(1), i(2)])))
    );
    assert_eq!(
        binop(Operator::Mult, &i(2), &l(vec![i(3)])),
        Some(Ok(l(vec![i(3), i(3)])))
    );
    assert_eq!(
        binop(Operator::Mult, &l(vec![]), &i(3)),
        Some(Ok(l(vec![])))
    );
    // [1] + [2, 3] -> [1, 2, 3]
    assert_eq!(
        binop(Operator::Add, &l(vec![i(1)]), &l(vec![i(2), i(3)])),
        Some(Ok(l(vec![i(1), i(2), i(3)])))
    );
    // [1] + (1,) -> TypeError: can only concatenate list (not "tuple") to list
    assert_eq!(
        binop(Operator::Add, &l(vec![i(1)]), &t(vec![i(1)])),
        Some(Err(type_err(
            "can only concatenate list (not \"tuple\") to list"
        )))
    );
    // (1,) + [1] -> TypeError: can only concatenate tuple (not "list") to tuple
    assert_eq!(
        binop(Operator::Add, &t(vec![i(1)]), &l(vec![i(1)])),
        Some(Err(type_err(
            "can only concatenate tuple (not \"list\") to tuple"
        )))
    );
    // [1, 2] < [1, 3] -> True; [1] < (2,) -> TypeError
    assert_eq!(
        compare(CmpOp::Lt, &l(vec![i(1), i(2)]), &l(vec![i(1), i(3)])),
        Ok(Some(true))
    );
    assert_eq!(
        compare(CmpOp::Lt, &l(vec![i(1)]), &t(vec![i(2)])),
        Err(type_err(
            "'<' not supported between instances of 'list' and 'tuple'"
        ))
    );
    // [2, 3][-1] -> 3; [2, 3][2] -> IndexError: list index out of range
    let two_three = l(vec![i(2), i(3)]);
    assert_eq!(index(&two_three, &i(-1)), Ok(i(3)));
    assert_eq!(
        index(&two_three, &i(2)),
        Err(PyError::Index("list index out of range"))
    );
    // len([1, 2, 3]) -> 3; 2 in [1, 2] -> True; bool([]) -> False; max([3, 7, 5]) -> 7
    assert_eq!(len(&l(vec![i(1), i(2), i(3)])), Ok(3));
    assert_eq!(
        compare(CmpOp::In, &i(2), &l(vec![i(1), i(2)])),
        Ok(Some(true))
    );
    assert_eq!(builtin("bool", &[l(vec![])]), Some(Ok(V::bool(false))));
    assert_eq!(builtin("max", &[l(vec![i(3), i(7), i(5)])]), Some(Ok(i(7))));
}

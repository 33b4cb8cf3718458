//! The data-layout primitives: functions of the shape of their input only (`zip`, `split`,
//! `slide`, `pad`, `transpose`, `gather`, vectors, indexing). Every size precondition of SPEC
//! section 2 is checked and reported as an [`InterpError`].

use super::value::Value;
use super::InterpError;

type Result<T> = std::result::Result<T, InterpError>;

fn precondition(prim: &str, reason: String) -> InterpError {
    InterpError::Precondition {
        prim: prim.to_string(),
        reason,
    }
}

/// The elements of an array value.
pub(super) fn as_array<'a>(v: &'a Value, what: &str) -> Result<&'a [Value]> {
    match v {
        Value::Array(xs) => Ok(xs),
        v => Err(InterpError::TypeMismatch(format!(
            "{what}: expects an array, found {}",
            v.describe()
        ))),
    }
}

/// The elements of an array value, by value.
pub(super) fn into_array(v: Value, what: &str) -> Result<Vec<Value>> {
    match v {
        Value::Array(xs) => Ok(xs),
        v => Err(InterpError::TypeMismatch(format!(
            "{what}: expects an array, found {}",
            v.describe()
        ))),
    }
}

fn out_of_range(what: &str, index: i64, len: usize) -> InterpError {
    InterpError::IndexOutOfRange {
        what: what.to_string(),
        index,
        len,
    }
}

/// Element `i` of an array (which may be negative or too large: an error then).
fn elem<'a>(x: &'a Value, i: i64, what: &str) -> Result<&'a Value> {
    let xs = as_array(x, what)?;
    usize::try_from(i)
        .ok()
        .and_then(|j| xs.get(j))
        .ok_or_else(|| out_of_range(what, i, xs.len()))
}

/// `at(i)` / `x[i]`: element `i` of an array, or lane `i` of a vector.
pub(super) fn at(x: Value, i: usize, what: &str) -> Result<Value> {
    let len = match &x {
        Value::Vector(lanes) => lanes.len(),
        _ => as_array(&x, what)?.len(),
    };
    let err = || out_of_range(what, i as i64, len);
    match x {
        Value::Vector(lanes) => lanes.get(i).copied().map(Value::Scalar).ok_or_else(err),
        x => into_array(x, what)?.into_iter().nth(i).ok_or_else(err),
    }
}

/// `get(i)` / `x.i`: field `i` of a tuple.
pub(super) fn field(x: Value, i: usize, what: &str) -> Result<Value> {
    match x {
        Value::Tuple(vs) => {
            let len = vs.len();
            vs.into_iter()
                .nth(i)
                .ok_or_else(|| out_of_range(what, i as i64, len))
        }
        v => Err(InterpError::TypeMismatch(format!(
            "{what}: expects a tuple, found {}",
            v.describe()
        ))),
    }
}

/// `zip` at `depth` levels (`zip2` is 2): tuples of corresponding elements.
pub(super) fn zip(inputs: Vec<Value>, depth: usize, what: &str) -> Result<Value> {
    if depth == 0 {
        return Ok(Value::Tuple(inputs));
    }
    let arrays = inputs
        .into_iter()
        .map(|v| into_array(v, what))
        .collect::<Result<Vec<_>>>()?;
    let n = arrays.first().map_or(0, Vec::len);
    if let Some(a) = arrays.iter().find(|a| a.len() != n) {
        return Err(InterpError::LengthMismatch {
            what: what.to_string(),
            a: n,
            b: a.len(),
        });
    }
    let mut iters: Vec<_> = arrays.into_iter().map(Vec::into_iter).collect();
    let rows = (0..n).map(|_| {
        zip(
            iters.iter_mut().filter_map(Iterator::next).collect(),
            depth - 1,
            what,
        )
    });
    Ok(Value::Array(rows.collect::<Result<_>>()?))
}

/// `unzip`: an array of tuples to a tuple of arrays.
pub(super) fn unzip(x: Value) -> Result<Value> {
    let rows = into_array(x, "unzip")?;
    let arity = match rows.first() {
        Some(Value::Tuple(fs)) => fs.len(),
        Some(v) => {
            return Err(InterpError::TypeMismatch(format!(
                "unzip: expects tuples, found {}",
                v.describe()
            )))
        }
        None => return Err(precondition("unzip", "cannot unzip an empty array".into())),
    };
    let mut cols: Vec<Vec<Value>> = vec![Vec::with_capacity(rows.len()); arity];
    for row in rows {
        match row {
            Value::Tuple(fs) if fs.len() == arity => {
                cols.iter_mut().zip(fs).for_each(|(c, f)| c.push(f))
            }
            v => {
                return Err(InterpError::TypeMismatch(format!(
                    "unzip: ragged tuple {}",
                    v.describe()
                )))
            }
        }
    }
    Ok(Value::Tuple(cols.into_iter().map(Value::Array).collect()))
}

/// `split(m)`: chunks of `m` elements; requires `n % m == 0`.
pub(super) fn split(m: usize, x: Value) -> Result<Value> {
    let xs = into_array(x, "split")?;
    if m == 0 || xs.len() % m != 0 {
        return Err(precondition(
            "split",
            format!("length {} is not divisible by {m}", xs.len()),
        ));
    }
    Ok(Value::Array(
        xs.chunks(m).map(|c| Value::Array(c.to_vec())).collect(),
    ))
}

/// `take(n)`: the first `n` elements; requires `n <= m`.
pub(super) fn take(n: usize, x: Value) -> Result<Value> {
    let mut xs = into_array(x, "take")?;
    if n > xs.len() {
        return Err(precondition(
            "take",
            format!("{n} elements of an array of {}", xs.len()),
        ));
    }
    xs.truncate(n);
    Ok(Value::Array(xs))
}

/// The first element of block `b` of `split_cover(t)` over `n` elements.
fn cover_start(b: usize, t: usize, n: usize) -> usize {
    (b * t).min(n - t)
}

/// `split_cover(t)`: `(n + t - 1) / t` blocks of `t`, block `b` starting at
/// `min(b t, n - t)`; requires `1 <= t <= n`.
pub(super) fn split_cover(t: usize, x: Value) -> Result<Value> {
    let xs = into_array(x, "split_cover")?;
    let n = xs.len();
    if t == 0 || t > n {
        return Err(precondition(
            "split_cover",
            format!("blocks of {t} over an array of {n}"),
        ));
    }
    Ok(Value::Array(
        (0..n.div_ceil(t))
            .map(|b| {
                let s = cover_start(b, t, n);
                Value::Array(xs[s..s + t].to_vec())
            })
            .collect(),
    ))
}

/// `join_cover(n)`: the inverse of `split_cover(t)` over `n` elements; element `j` is read
/// from block `min(j / t, blocks - 1)`.
pub(super) fn join_cover(n: usize, x: Value) -> Result<Value> {
    let blocks = into_array(x, "join_cover")?
        .into_iter()
        .map(|b| into_array(b, "join_cover"))
        .collect::<Result<Vec<_>>>()?;
    let t = blocks.first().map_or(0, Vec::len);
    if t == 0 || t > n || blocks.len() != n.div_ceil(t) || blocks.iter().any(|b| b.len() != t) {
        return Err(precondition(
            "join_cover",
            format!("{} blocks of {t} do not cover {n} elements", blocks.len()),
        ));
    }
    Ok(Value::Array(
        (0..n)
            .map(|j| {
                let b = (j / t).min(blocks.len() - 1);
                blocks[b][j - cover_start(b, t, n)].clone()
            })
            .collect(),
    ))
}

/// `head`: the first element, as an array of one.
pub(super) fn head(x: Value) -> Result<Value> {
    let xs = into_array(x, "head")?;
    match xs.into_iter().next() {
        Some(v) => Ok(Value::Array(vec![v])),
        None => Err(precondition("head", "of an empty array".into())),
    }
}

/// `tail`: all but the first element (at least two elements, as SPEC asks).
pub(super) fn tail(x: Value) -> Result<Value> {
    let mut xs = into_array(x, "tail")?;
    if xs.len() < 2 {
        return Err(precondition(
            "tail",
            format!("needs at least two elements, found {}", xs.len()),
        ));
    }
    xs.remove(0);
    Ok(Value::Array(xs))
}

/// `untile2`: tiles `[ny][nx][ty][tx]` back to the `[ny * ty][nx * tx]` array.
pub(super) fn untile2(x: Value) -> Result<Value> {
    let mut rows = Vec::new();
    for tile_row in into_array(x, "untile2")? {
        let tiles = into_array(tile_row, "untile2")?;
        let per_tile: Vec<Vec<Value>> = tiles
            .into_iter()
            .map(|t| into_array(t, "untile2"))
            .collect::<Result<_>>()?;
        let ty = per_tile.first().map_or(0, Vec::len);
        for r in 0..ty {
            let mut row = Vec::new();
            for t in &per_tile {
                let tr = t.get(r).cloned().ok_or_else(|| {
                    InterpError::TypeMismatch("untile2: tiles of different heights".into())
                })?;
                row.extend(into_array(tr, "untile2")?);
            }
            rows.push(Value::Array(row));
        }
    }
    Ok(Value::Array(rows))
}

/// `join`: concatenation of the rows.
pub(super) fn join(x: Value) -> Result<Value> {
    let mut out = Vec::new();
    for row in into_array(x, "join")? {
        out.extend(into_array(row, "join")?);
    }
    Ok(Value::Array(out))
}

/// `transpose`: `out[j][i] = x[i][j]`.
pub(super) fn transpose(x: &Value) -> Result<Value> {
    let rows = as_array(x, "transpose")?;
    let m = match rows.first() {
        Some(r) => as_array(r, "transpose")?.len(),
        None => 0,
    };
    let col = |j: usize| -> Result<Value> {
        let col = rows.iter().map(|r| elem(r, j as i64, "transpose").cloned());
        Ok(Value::Array(col.collect::<Result<_>>()?))
    };
    Ok(Value::Array((0..m).map(col).collect::<Result<_>>()?))
}

/// `slide`, `slide2`, `slide3`: one `(size, step)` per dimension, outermost first. The result
/// is the grid of window positions, each holding its neighbourhood: window `i` of a dimension
/// covers `i*step .. i*step+size`. Requires `size <= n` and `(n - size) % step == 0`.
pub(super) fn slide(x: &Value, dims: &[(usize, usize)], what: &str) -> Result<Value> {
    let mut counts = Vec::with_capacity(dims.len());
    let mut cur = x;
    for &(size, step) in dims {
        let xs = as_array(cur, what)?;
        let n = xs.len();
        if size == 0 || step == 0 {
            return Err(precondition(
                what,
                format!("size {size} and step {step} must be positive"),
            ));
        }
        if size > n || (n - size) % step != 0 {
            return Err(precondition(
                what,
                format!("needs size <= n and (n - size) % step == 0: n = {n}, size = {size}, step = {step}"),
            ));
        }
        counts.push((n - size) / step + 1);
        cur = xs.first().unwrap_or(cur);
    }
    grid(x, dims, &counts, &mut Vec::new(), what)
}

/// The windows at all positions below `origin` (the window starts chosen so far).
fn grid(
    x: &Value,
    dims: &[(usize, usize)],
    counts: &[usize],
    origin: &mut Vec<usize>,
    what: &str,
) -> Result<Value> {
    let level = origin.len();
    let (Some(&count), Some(&(_, step))) = (counts.get(level), dims.get(level)) else {
        return window(x, origin, dims, what);
    };
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        origin.push(i * step);
        let w = grid(x, dims, counts, origin, what);
        origin.pop();
        out.push(w?);
    }
    Ok(Value::Array(out))
}

/// The neighbourhood of `x` starting at `origin`, `size` elements in each dimension.
fn window(x: &Value, origin: &[usize], dims: &[(usize, usize)], what: &str) -> Result<Value> {
    let (Some((&o, origin)), Some((&(size, _), dims))) = (origin.split_first(), dims.split_first())
    else {
        return Ok(x.clone());
    };
    let rows = (o..o + size).map(|k| window(elem(x, k as i64, what)?, origin, dims, what));
    Ok(Value::Array(rows.collect::<Result<_>>()?))
}

/// A pad boundary with its constant evaluated.
pub(super) enum Bound {
    /// `min(max(i, 0), n - 1)`.
    Clamp,
    /// `i < 0: -1 - i`; `i >= n: 2n - 1 - i`, reflecting again past the other end (period
    /// `2n`).
    Mirror,
    /// `((i % n) + n) % n`.
    Wrap,
    /// The value.
    Constant(Value),
}

/// Where a padded position reads from.
enum Pick<'a> {
    /// This index of the input.
    At(i64),
    /// The constant.
    Const(&'a Value),
}

impl Bound {
    fn pick(&self, i: i64, n: usize) -> Pick<'_> {
        let n = n as i64;
        match self {
            Bound::Clamp => Pick::At(i.max(0).min(n - 1)),
            Bound::Mirror if n > 0 => {
                let m = i.rem_euclid(2 * n);
                Pick::At(if m >= n { 2 * n - 1 - m } else { m })
            }
            Bound::Wrap if n > 0 => Pick::At(i.rem_euclid(n)),
            Bound::Constant(c) if i < 0 || i >= n => Pick::Const(c),
            _ => Pick::At(i),
        }
    }
}

/// `pad`, `pad2`, `pad3`: one `(before, after)` per dimension, outermost first; `out[k]` reads
/// the input at the boundary index of `k - before` in every dimension (a position outside the
/// input in any dimension is the constant for `constant(v)`).
pub(super) fn pad(x: &Value, pads: &[(usize, usize)], b: &Bound, what: &str) -> Result<Value> {
    let Some((&(l, r), rest)) = pads.split_first() else {
        return Ok(x.clone());
    };
    let xs = as_array(x, what)?;
    let n = xs.len();
    let one = |k: usize| match b.pick(k as i64 - l as i64, n) {
        Pick::At(i) => pad(elem(x, i, what)?, rest, b, what),
        Pick::Const(c) => fill(xs.first(), rest, c, what),
    };
    Ok(Value::Array(
        (0..padded(l, n, r, what)?)
            .map(one)
            .collect::<Result<_>>()?,
    ))
}

/// Arrays longer than this are refused rather than attempted.
const MAX_LEN: usize = 1 << 32;

/// `l + n + r`, refused when absurdly large.
fn padded(l: usize, n: usize, r: usize, what: &str) -> Result<usize> {
    l.checked_add(n)
        .and_then(|s| s.checked_add(r))
        .filter(|&len| len <= MAX_LEN)
        .ok_or_else(|| precondition(what, format!("padded length {l} + {n} + {r} is too large")))
}

/// The constant `c` in the shape of `template` padded by `pads`.
fn fill(template: Option<&Value>, pads: &[(usize, usize)], c: &Value, what: &str) -> Result<Value> {
    let Some((&(l, r), rest)) = pads.split_first() else {
        return Ok(c.clone());
    };
    let xs = match template {
        Some(t) => as_array(t, what)?,
        None => &[],
    };
    let inner = fill(xs.first(), rest, c, what)?;
    Ok(Value::Array(vec![inner; padded(l, xs.len(), r, what)?]))
}

/// A `gather`/`scatter` index function.
pub(super) enum Order {
    /// `n - 1 - i`.
    Reverse,
    /// `i / (n / s) + s * (i % (n / s))`.
    Stride(usize),
}

/// `gather(r)` (`out[i] = x[r(i)]`) or, with `scatter`, `scatter(r)` (`out[r(i)] = x[i]`).
pub(super) fn reorder(x: Value, order: &Order, scatter: bool) -> Result<Value> {
    let what = if scatter { "scatter" } else { "gather" };
    let xs = into_array(x, what)?;
    let n = xs.len();
    let r = |i: usize| match *order {
        Order::Reverse => n - 1 - i,
        Order::Stride(s) => i / (n / s) + s * (i % (n / s)),
    };
    if let Order::Stride(s) = *order {
        if s == 0 || n % s != 0 {
            return Err(precondition(
                what,
                format!("stride({s}) needs n % s == 0, n = {n}"),
            ));
        }
    }
    if !scatter {
        let out = (0..n).map(|i| {
            xs.get(r(i))
                .cloned()
                .ok_or_else(|| out_of_range(what, r(i) as i64, n))
        });
        return Ok(Value::Array(out.collect::<Result<_>>()?));
    }
    let mut out: Vec<Option<Value>> = vec![None; n];
    for (i, v) in xs.into_iter().enumerate() {
        let slot = out
            .get_mut(r(i))
            .ok_or_else(|| out_of_range(what, r(i) as i64, n))?;
        *slot = Some(v);
    }
    let out: Option<Vec<Value>> = out.into_iter().collect();
    out.map(Value::Array)
        .ok_or_else(|| precondition(what, "index function is not a permutation".into()))
}

/// `as_vector(w)`: groups of `w` scalars as vectors; requires `n % w == 0`.
pub(super) fn as_vector(w: usize, x: Value) -> Result<Value> {
    let xs = into_array(x, "as_vector")?;
    if w == 0 || xs.len() % w != 0 {
        return Err(precondition(
            "as_vector",
            format!("length {} is not divisible by {w}", xs.len()),
        ));
    }
    let lanes = |c: &[Value]| -> Result<Value> {
        let scalars = c.iter().map(|v| {
            v.as_scalar().ok_or_else(|| {
                InterpError::TypeMismatch(format!(
                    "as_vector: expects scalars, found {}",
                    v.describe()
                ))
            })
        });
        Ok(Value::Vector(scalars.collect::<Result<_>>()?))
    };
    Ok(Value::Array(
        xs.chunks(w).map(lanes).collect::<Result<_>>()?,
    ))
}

/// `as_scalar`: the lanes of every vector, in order.
pub(super) fn as_scalar(x: Value) -> Result<Value> {
    let mut out = Vec::new();
    for v in into_array(x, "as_scalar")? {
        match v {
            Value::Vector(lanes) => out.extend(lanes.into_iter().map(Value::Scalar)),
            v => {
                return Err(InterpError::TypeMismatch(format!(
                    "as_scalar: expects vectors, found {}",
                    v.describe()
                )))
            }
        }
    }
    Ok(Value::Array(out))
}

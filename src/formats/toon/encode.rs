//! JSON → TOON. Everything is written straight into one `String`; the layout
//! decisions mirror the reference encoder so output is byte-identical.

use super::options::{Delimiter, EncodeOptions, KeyFolding, Spec};
use super::text::{
    is_identifier_segment, write_key, write_number, write_quoted, write_string, write_u64,
};
use super::tree::{Node, Object, View};

pub(super) fn encode<N: Node>(value: &N, opts: &EncodeOptions) -> String {
    let mut enc = Encoder {
        out: String::new(),
        indent: opts.indent,
        delim: opts.delimiter.as_byte(),
        delim_mark: match opts.delimiter {
            Delimiter::Comma => "",
            Delimiter::Tab => "\t",
            Delimiter::Pipe => "|",
        },
        v4: opts.spec == Spec::V4,
        // v4 removed key folding.
        fold: opts.key_folding == KeyFolding::Safe && opts.spec == Spec::V3,
        flatten_depth: opts.flatten_depth,
        folded_key: false,
        root_dotted: Vec::new(),
        path: String::new(),
        scratch: String::new(),
        spaces: String::new(),
    };
    match value.view() {
        View::Object(map) if enc.v4 && keyed_fields::<N>(map).is_some() => {
            let fields = keyed_fields::<N>(map).expect("checked");
            enc.keyed::<N>(None, map, &fields, 0);
        }
        View::Object(map) => {
            if enc.fold {
                enc.root_dotted = map
                    .entries()
                    .map(|(k, _)| k)
                    .filter(|k| k.contains('.'))
                    .collect();
            }
            enc.fields::<N>(map, 0, false, opts.flatten_depth, true);
        }
        // v3.3 canonical form for an empty root array.
        View::Array([]) => enc.out.push_str("[]"),
        View::Array(arr) => enc.array(None, arr, 0, false),
        _ => enc.primitive(value),
    }
    enc.out
}

/// One column of a table header: a leaf, or (v4) a nested field group `name{…}`.
struct FieldNode<'v> {
    name: &'v str,
    children: Vec<FieldNode<'v>>,
}

/// How an array is laid out, decided in a single pass over its elements.
enum Shape<'v> {
    /// Inline `key[N]: a,b,c`.
    Primitives,
    /// Tabular rows with this header (the first row's key order).
    Table(Vec<FieldNode<'v>>),
    /// Expanded `- item` lines.
    List,
}

struct Encoder<'v> {
    out: String,
    v4: bool,
    indent: usize,
    delim: u8,
    delim_mark: &'static str,
    fold: bool,
    flatten_depth: usize,
    /// The next array header's key is a folded path (`a.b`), written bare; set by `emit_folded`.
    folded_key: bool,
    /// Root keys containing a dot: folding must not produce an absolute path equal to one.
    root_dotted: Vec<&'v str>,
    /// Dotted path from the root to the current object; only kept up when `root_dotted` is non-empty.
    path: String,
    /// Reused buffer for building folded keys.
    scratch: String,
    spaces: String,
}

/// Where JavaScript's `String(n)` switches to exponent form.
fn exponent(f: f64) -> bool {
    let a = f.abs();
    a >= 1e21 || (a > 0.0 && a < 1e-6)
}

fn is_primitive<N: Node>(v: &N) -> bool {
    !matches!(v.view(), View::Array(_) | View::Object(_))
}

/// The layout of an array: v3 tables hold primitives only; v4 also takes columns of uniform
/// objects as nested field groups.
fn classify<N: Node>(arr: &[N], v4: bool) -> Shape<'_> {
    if v4 && arr.iter().all(|v| matches!(v.view(), View::Object(_))) {
        let rows: Vec<&N::Object> = arr
            .iter()
            .filter_map(|v| match v.view() {
                View::Object(m) => Some(m),
                _ => None,
            })
            .collect();
        return match table_fields::<N>(&rows) {
            Some(fields) => Shape::Table(fields),
            None => Shape::List,
        };
    }
    classify_v3(arr)
}

/// The v4 header of `rows` if they are tabular: every row a non-empty object with the first
/// row's key set, every column all primitives (a leaf) or all uniform non-empty objects (a
/// group, recursively).
fn table_fields<'v, N: Node + 'v>(rows: &[&'v N::Object]) -> Option<Vec<FieldNode<'v>>> {
    let first = *rows.first()?;
    if first.is_empty() {
        return None;
    }
    let keys: Vec<(&'v str, bool)> = first.entries().map(|(k, v)| (k, is_primitive(v))).collect();
    let mut columns: Vec<Vec<&'v N::Object>> = keys.iter().map(|_| Vec::new()).collect();
    // One pass over the rows; rows usually share the first row's key order.
    for r in rows {
        if r.len() != keys.len() {
            return None;
        }
        let mut entries = r.entries();
        for (i, &(key, leaf)) in keys.iter().enumerate() {
            let v = match entries.next() {
                Some((k, v)) if k == key => v,
                _ => r.get(key)?,
            };
            match v.view() {
                View::Object(m) if !leaf && !m.is_empty() => columns[i].push(m),
                View::Array(_) | View::Object(_) => return None,
                _ if leaf => {}
                _ => return None,
            }
        }
    }
    keys.into_iter()
        .zip(columns)
        .map(|((name, leaf), column)| {
            let children = if leaf {
                Vec::new()
            } else {
                table_fields::<N>(&column)?
            };
            Some(FieldNode { name, children })
        })
        .collect()
}

/// The header of a keyed table (v4): an object of two or more uniform non-empty objects.
fn keyed_fields<'v, N: Node + 'v>(map: &'v N::Object) -> Option<Vec<FieldNode<'v>>> {
    if map.len() < 2 {
        return None;
    }
    let mut values = Vec::with_capacity(map.len());
    for (_, v) in map.entries() {
        match v.view() {
            View::Object(m) if !m.is_empty() => values.push(m),
            _ => return None,
        }
    }
    table_fields::<N>(&values)
}

fn classify_v3<N: Node>(arr: &[N]) -> Shape<'_> {
    let header = match arr.first().map(Node::view) {
        Some(View::Object(m)) if !m.is_empty() => Some(m),
        _ => None,
    };
    let mut all_prim = true;
    let mut table = header.is_some();
    for v in arr {
        match v.view() {
            View::Object(m) => {
                all_prim = false;
                table = table && header.is_some_and(|h| row_matches::<N>(h, m));
            }
            View::Array(_) => return Shape::List,
            _ => table = false,
        }
        if !all_prim && !table {
            return Shape::List;
        }
    }
    match header {
        Some(h) if !all_prim => Shape::Table(
            h.entries()
                .map(|(name, _)| FieldNode {
                    name,
                    children: Vec::new(),
                })
                .collect(),
        ),
        _ => Shape::Primitives,
    }
}

/// Same key set as the header and only primitive values.
fn row_matches<N: Node>(header: &N::Object, row: &N::Object) -> bool {
    if row.len() != header.len() {
        return false;
    }
    let mut same_order = true;
    for ((hk, _), (k, v)) in header.entries().zip(row.entries()) {
        if hk != k {
            same_order = false;
            break;
        }
        if !is_primitive(v) {
            return false;
        }
    }
    same_order
        || header
            .entries()
            .all(|(k, _)| row.get(k).is_some_and(is_primitive))
}

impl<'v> Encoder<'v> {
    /// Starts a new line at `depth` (lines are joined with `\n`, none trailing).
    fn line(&mut self, depth: usize) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        let n = depth * self.indent;
        if self.spaces.len() < n {
            self.spaces = " ".repeat(n * 2);
        }
        self.out.push_str(&self.spaces[..n]);
    }

    fn item_line(&mut self, depth: usize) {
        self.line(depth);
        self.out.push_str("- ");
    }

    fn primitive<N: Node + 'v>(&mut self, v: &N) {
        match v.view() {
            View::Null => self.out.push_str("null"),
            View::Bool(true) => self.out.push_str("true"),
            View::Bool(false) => self.out.push_str("false"),
            View::Number(n) => match n.as_f64().filter(|f| self.v4 && n.is_f64() && exponent(*f)) {
                // v4's reference encoder prints numbers as JavaScript does: 1e+21, 1.5e-7.
                Some(f) => {
                    let e = format!("{f:e}");
                    match e.split_once('e') {
                        Some((m, x)) if !x.starts_with('-') => {
                            self.out.push_str(m);
                            self.out.push_str("e+");
                            self.out.push_str(x);
                        }
                        _ => self.out.push_str(&e),
                    }
                }
                None => write_number(&mut self.out, n),
            },
            View::String(s) => write_string(&mut self.out, s, self.delim, self.v4),
            View::Array(_) | View::Object(_) => {}
        }
    }

    /// Writes a literal key. With folding on, a key holding `.` is quoted even where the
    /// reference leaves it bare: a bare `price.heinz` reads back as the path price → heinz, so
    /// quoting is the only way it survives `expandPaths: "safe"` (deviation, `docs/formats.md`).
    fn key(&mut self, k: &str) {
        if self.fold && k.contains('.') && !std::mem::take(&mut self.folded_key) {
            write_quoted(&mut self.out, k);
        } else {
            self.folded_key = false;
            write_key(&mut self.out, k);
        }
    }

    fn push_delim(&mut self) {
        self.out.push(char::from(self.delim));
    }

    /// `key[N<delim>]{fields}:` (key and fields optional); `keyed` writes v4's `[N:]`.
    fn header(&mut self, key: Option<&str>, len: usize, fields: Option<&[FieldNode]>, keyed: bool) {
        if let Some(k) = key {
            self.key(k);
        }
        self.out.push('[');
        write_u64(&mut self.out, len as u64);
        if keyed {
            self.out.push(':');
        }
        self.out.push_str(self.delim_mark);
        self.out.push(']');
        if let Some(f) = fields {
            self.field_list(f);
        }
        self.out.push(':');
    }

    fn field_list(&mut self, fields: &[FieldNode]) {
        self.out.push('{');
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.push_delim();
            }
            self.key(f.name);
            if !f.children.is_empty() {
                self.field_list(&f.children);
            }
        }
        self.out.push('}');
    }

    /// A keyed table (v4): the header, then `entry: cells` per entry one level deeper.
    fn keyed<N: Node + 'v>(
        &mut self,
        key: Option<&str>,
        map: &'v N::Object,
        fields: &[FieldNode],
        depth: usize,
    ) {
        self.header(key, map.len(), Some(fields), true);
        for (k, v) in map.entries() {
            if let View::Object(m) = v.view() {
                self.line(depth + 1);
                self.key(k);
                self.out.push_str(": ");
                let mut first = true;
                self.row::<N>(fields, m, &mut first);
            }
        }
    }

    fn inline_values<N: Node + 'v>(&mut self, arr: &[N]) {
        for (i, v) in arr.iter().enumerate() {
            self.out
                .push(if i == 0 { ' ' } else { char::from(self.delim) });
            self.primitive(v);
        }
    }

    /// Fields of an object at `depth`. `skip_first` serves list items, whose first
    /// field sits on the hyphen line and is not a sibling for collision checks.
    fn fields<N: Node + 'v>(
        &mut self,
        map: &'v N::Object,
        depth: usize,
        skip_first: bool,
        remaining: usize,
        track: bool,
    ) {
        for (key, value) in map.entries().skip(usize::from(skip_first)) {
            if self.fold
                && matches!(value.view(), View::Object(_))
                && self.try_fold(map, skip_first, key, value, depth, remaining, track)
            {
                continue;
            }
            self.field(key, value, depth, remaining, track);
        }
    }

    fn field<N: Node + 'v>(
        &mut self,
        key: &'v str,
        value: &'v N,
        depth: usize,
        remaining: usize,
        track: bool,
    ) {
        match value.view() {
            View::Array(arr) => self.array(Some(key), arr, depth, false),
            View::Object(obj) if self.v4 && keyed_fields::<N>(obj).is_some() => {
                let fields = keyed_fields::<N>(obj).expect("checked");
                self.line(depth);
                self.keyed::<N>(Some(key), obj, &fields, depth);
            }
            View::Object(obj) => {
                self.line(depth);
                self.key(key);
                self.out.push(':');
                if !obj.is_empty() {
                    let saved = self.enter_path(key, track);
                    self.fields::<N>(obj, depth + 1, false, remaining, track);
                    self.path.truncate(saved);
                }
            }
            _ => {
                self.line(depth);
                self.key(key);
                self.out.push_str(": ");
                self.primitive(value);
            }
        }
    }

    /// Appends `seg` to the tracked path; returns the length to truncate back to.
    fn enter_path(&mut self, seg: &str, track: bool) -> usize {
        let saved = self.path.len();
        if track && !self.root_dotted.is_empty() {
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(seg);
        }
        saved
    }

    /// Emits `key` folded with its chain of single-key objects, if safe.
    #[allow(clippy::too_many_arguments)]
    fn try_fold<N: Node + 'v>(
        &mut self,
        siblings: &N::Object,
        skip_first: bool,
        key: &str,
        value: &'v N,
        depth: usize,
        remaining: usize,
        track: bool,
    ) -> bool {
        if !is_identifier_segment(key) {
            return false;
        }
        let mut folded = std::mem::take(&mut self.scratch);
        folded.clear();
        folded.push_str(key);
        let mut count = 1;
        let mut cur = value;
        let mut ok = true;
        while count < remaining {
            let View::Object(m) = cur.view() else { break };
            let Some((k, v)) = m.entries().next().filter(|_| m.len() == 1) else {
                break;
            };
            // Any non-identifier segment inside the depth limit vetoes the whole chain.
            if !is_identifier_segment(k) {
                ok = false;
                break;
            }
            folded.push('.');
            folded.push_str(k);
            cur = v;
            count += 1;
        }
        ok = ok && count >= 2 && !self.collides::<N>(siblings, skip_first, &folded, track);
        if ok {
            self.emit_folded(&folded, cur, depth, remaining - count, track);
        }
        self.scratch = folded;
        ok
    }

    fn collides<N: Node + 'v>(
        &self,
        siblings: &N::Object,
        skip_first: bool,
        folded: &str,
        track: bool,
    ) -> bool {
        let sibling = siblings.get(folded).is_some()
            && !(skip_first && siblings.entries().next().is_some_and(|(k, _)| k == folded));
        if sibling {
            return true;
        }
        if !track || self.root_dotted.is_empty() {
            return false;
        }
        let (prefix, rest) = (self.path.as_str(), folded);
        self.root_dotted.iter().any(|lit| {
            if prefix.is_empty() {
                *lit == rest
            } else {
                lit.len() == prefix.len() + 1 + rest.len()
                    && lit.starts_with(prefix)
                    && lit.as_bytes()[prefix.len()] == b'.'
                    && lit.ends_with(rest)
            }
        })
    }

    fn emit_folded<N: Node + 'v>(
        &mut self,
        folded: &str,
        leaf: &'v N,
        depth: usize,
        remaining: usize,
        track: bool,
    ) {
        match leaf.view() {
            View::Object(m) if !m.is_empty() => {
                // Depth limit reached on a non-empty object: continue nested below it.
                self.line(depth);
                self.out.push_str(folded);
                self.out.push(':');
                let saved = self.enter_path(folded, track);
                self.fields::<N>(m, depth + 1, false, remaining, track);
                self.path.truncate(saved);
            }
            View::Object(_) => {
                self.line(depth);
                self.out.push_str(folded);
                self.out.push(':');
            }
            View::Array(arr) => {
                self.folded_key = true;
                self.array(Some(folded), arr, depth, false);
            }
            _ => {
                self.line(depth);
                self.out.push_str(folded);
                self.out.push_str(": ");
                self.primitive(leaf);
            }
        }
    }

    /// An array under `key` (None only for the root). With `dash` the header sits on a
    /// list-item hyphen line and nested lines go two levels deeper instead of one.
    fn array<N: Node + 'v>(&mut self, key: Option<&str>, arr: &'v [N], depth: usize, dash: bool) {
        let child = depth + if dash { 2 } else { 1 };
        if dash {
            self.item_line(depth);
        } else {
            self.line(depth);
        }
        if arr.is_empty() {
            match key {
                Some(k) => {
                    self.key(k);
                    self.out.push_str(": []");
                }
                None => self.header(None, 0, None, false),
            }
            return;
        }
        match classify(arr, self.v4) {
            Shape::Primitives => {
                self.header(key, arr.len(), None, false);
                self.inline_values(arr);
            }
            Shape::Table(fields) => {
                self.header(key, arr.len(), Some(&fields), false);
                for row in arr {
                    if let View::Object(m) = row.view() {
                        self.line(child);
                        let mut first = true;
                        self.row::<N>(&fields, m, &mut first);
                    }
                }
            }
            Shape::List => {
                self.header(key, arr.len(), None, false);
                for item in arr {
                    self.list_item(item, child);
                }
            }
        }
    }

    /// The cells of one row: the leaves of `fields`, depth-first.
    fn row<N: Node + 'v>(&mut self, fields: &[FieldNode], row: &'v N::Object, first: &mut bool) {
        let mut entries = row.entries();
        for f in fields {
            // Rows usually share the header's key order; fall back to lookup otherwise.
            let v = match entries.next() {
                Some((k, v)) if k == f.name => Some(v),
                _ => row.get(f.name),
            };
            if f.children.is_empty() {
                if !std::mem::take(first) {
                    self.push_delim();
                }
                if let Some(v) = v {
                    self.primitive(v);
                }
            } else if let Some(View::Object(m)) = v.map(Node::view) {
                self.row::<N>(&f.children, m, first);
            }
        }
    }

    fn list_item<N: Node + 'v>(&mut self, item: &'v N, depth: usize) {
        match item.view() {
            View::Object(m) => self.list_item_object::<N>(m, depth),
            View::Array(arr) => {
                self.item_line(depth);
                self.header(None, arr.len(), None, false);
                if arr.iter().all(is_primitive) {
                    self.inline_values(arr);
                } else {
                    // Arrays nested directly in arrays are never tabular.
                    for x in arr {
                        self.list_item(x, depth + 1);
                    }
                }
            }
            _ => {
                self.item_line(depth);
                self.primitive(item);
            }
        }
    }

    /// First field on the hyphen line (never folded), the rest one level deeper.
    /// Folding state restarts here: no root-path tracking, full flatten depth.
    fn list_item_object<N: Node + 'v>(&mut self, m: &'v N::Object, depth: usize) {
        let Some((k, v)) = m.entries().next() else {
            self.line(depth);
            self.out.push('-');
            return;
        };
        match v.view() {
            View::Array(arr) => self.array(Some(k), arr, depth, true),
            View::Object(o) if self.v4 && keyed_fields::<N>(o).is_some() => {
                let fields = keyed_fields::<N>(o).expect("checked");
                self.item_line(depth);
                self.keyed::<N>(Some(k), o, &fields, depth + 1);
            }
            View::Object(o) => {
                self.item_line(depth);
                self.key(k);
                self.out.push(':');
                if !o.is_empty() {
                    self.fields::<N>(o, depth + 2, false, self.flatten_depth, false);
                }
            }
            _ => {
                self.item_line(depth);
                self.key(k);
                self.out.push_str(": ");
                self.primitive(v);
            }
        }
        if m.len() > 1 {
            self.fields::<N>(m, depth + 1, true, self.flatten_depth, false);
        }
    }
}

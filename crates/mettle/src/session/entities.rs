//! The entities in play, kept in shared chunks: a copy of the state shares every chunk with the
//! original until one of them changes an entity in it, so keeping a state to go back to (an action's
//! rollback, the REPL's `:undo`) costs what the step changes, not what is in play.

use super::Entity;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

// Entities a chunk holds: a change copies the chunk it falls in, and a copy of the list copies one
// pointer a chunk.
const CHUNK: usize = 32;

/// The entities in play, by id: a list that reads like a `Vec<Entity>` (`len`, `get`, `iter`,
/// `entities[id]`) and whose copies share what they have not changed.
///
/// ```
/// let rules = mettle::Ruleset::from_str("e.mettle", "kind unit { n: 0..9 = 0 }").unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// s.create("unit", "a", &[]).unwrap();
/// s.create("unit", "b", &[]).unwrap();
/// let names: Vec<&str> = s.state().entities().iter().map(|e| e.name.as_str()).collect();
/// assert_eq!(names, ["a", "b"]);
/// assert_eq!(s.state().entities()[1].name, "b");
/// ```
#[derive(Clone)]
pub struct Entities {
    store: Store,
    len: usize,
}

#[derive(Clone)]
enum Store {
    // Every chunk but the last is full; none is empty.
    Shared(Vec<Arc<Vec<Entity>>>),
    // A simulated game's entities, in one list of their own: nothing keeps a copy of its state while
    // it plays, so an entity is read with one step less and changed without asking whether a copy
    // shares it (an atomic operation on every write). A copy of this list copies every entity.
    Own(Vec<Entity>),
}

impl Default for Entities {
    fn default() -> Entities {
        Entities { store: Store::Shared(vec![]), len: 0 }
    }
}

/// The entities in order.
#[derive(Clone)]
pub struct Iter<'a>(IterIn<'a>);

// The chunks' entities one after another.
type Chunks<'a> = std::iter::FlatMap<
    std::slice::Iter<'a, Arc<Vec<Entity>>>,
    std::slice::Iter<'a, Entity>,
    fn(&'a Arc<Vec<Entity>>) -> std::slice::Iter<'a, Entity>,
>;

#[derive(Clone)]
enum IterIn<'a> {
    Shared(Chunks<'a>),
    Own(std::slice::Iter<'a, Entity>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Entity;
    fn next(&mut self) -> Option<&'a Entity> {
        match &mut self.0 {
            IterIn::Shared(i) => i.next(),
            IterIn::Own(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IterIn::Shared(i) => i.size_hint(),
            IterIn::Own(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterIn::Shared(i) => i.next_back(),
            IterIn::Own(i) => i.next_back(),
        }
    }
}

/// The entities in order, to change (each chunk is copied first if another state shares it).
pub struct IterMut<'a>(IterMutIn<'a>);

// The chunks' entities one after another, each chunk copied first if another state shares it.
type ChunksMut<'a> = std::iter::FlatMap<
    std::slice::IterMut<'a, Arc<Vec<Entity>>>,
    std::slice::IterMut<'a, Entity>,
    fn(&'a mut Arc<Vec<Entity>>) -> std::slice::IterMut<'a, Entity>,
>;

enum IterMutIn<'a> {
    Shared(ChunksMut<'a>),
    Own(std::slice::IterMut<'a, Entity>),
}

impl<'a> Iterator for IterMut<'a> {
    type Item = &'a mut Entity;
    fn next(&mut self) -> Option<&'a mut Entity> {
        match &mut self.0 {
            IterMutIn::Shared(i) => i.next(),
            IterMutIn::Own(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IterMutIn::Shared(i) => i.size_hint(),
            IterMutIn::Own(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterMutIn::Shared(i) => i.next_back(),
            IterMutIn::Own(i) => i.next_back(),
        }
    }
}

fn read(chunk: &Arc<Vec<Entity>>) -> std::slice::Iter<'_, Entity> {
    chunk.iter()
}

fn own(chunk: &mut Arc<Vec<Entity>>) -> std::slice::IterMut<'_, Entity> {
    Arc::make_mut(chunk).iter_mut()
}

impl Entities {
    /// None in play, kept in one list of their own, for a state that nothing copies while it plays.
    /// The entities that were are added to `spent`, their names' and attributes' buffers to be used
    /// again: last first, so that taken from its end they come back in the order they were made (a
    /// game that makes the same kinds in the same order finds each buffer of the right size).
    pub(super) fn clear_own(&mut self, spent: &mut Vec<Entity>) {
        match &mut self.store {
            Store::Own(v) => spent.extend(v.drain(..).rev()),
            store => *store = Store::Own(vec![]),
        }
        self.len = 0;
    }

    /// How many entities are in play.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entity with id `id`.
    #[inline]
    pub fn get(&self, id: usize) -> Option<&Entity> {
        match &self.store {
            Store::Own(v) => v.get(id),
            Store::Shared(chunks) => chunks.get(id / CHUNK)?.get(id % CHUNK),
        }
    }

    /// The entity with id `id`, to change.
    #[inline]
    pub fn get_mut(&mut self, id: usize) -> Option<&mut Entity> {
        match &mut self.store {
            Store::Own(v) => v.get_mut(id),
            Store::Shared(chunks) => shared_mut(chunks, id),
        }
    }

    /// The entities in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.store {
            Store::Own(v) => IterIn::Own(v.iter()),
            Store::Shared(chunks) => IterIn::Shared(
                chunks.iter().flat_map(read as fn(&Arc<Vec<Entity>>) -> std::slice::Iter<'_, Entity>),
            ),
        })
    }

    /// The entities in order, to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(match &mut self.store {
            Store::Own(v) => IterMutIn::Own(v.iter_mut()),
            Store::Shared(chunks) => IterMutIn::Shared(
                chunks
                    .iter_mut()
                    .flat_map(own as fn(&mut Arc<Vec<Entity>>) -> std::slice::IterMut<'_, Entity>),
            ),
        })
    }

    /// Puts `entity` in play with the next id.
    pub fn push(&mut self, entity: Entity) {
        match &mut self.store {
            Store::Own(v) => v.push(entity),
            Store::Shared(chunks) => match chunks.last_mut() {
                Some(last) if last.len() < CHUNK => Arc::make_mut(last).push(entity),
                _ => {
                    let mut chunk = Vec::with_capacity(CHUNK);
                    chunk.push(entity);
                    chunks.push(Arc::new(chunk));
                }
            },
        }
        self.len += 1;
    }

    /// Takes the entity with id `id` out; those after it move down by one.
    ///
    /// # Panics
    /// If `id` is not in play, as `Vec::remove` does.
    pub fn remove(&mut self, id: usize) -> Entity {
        if let Store::Own(v) = &mut self.store {
            let gone = v.remove(id);
            self.len -= 1;
            return gone;
        }
        // Every later id changes: the chunks are built again.
        let mut all: Vec<Entity> = std::mem::take(self).into_iter().collect();
        let gone = all.remove(id);
        *self = all.into_iter().collect();
        gone
    }

    /// Keeps the first `len` entities.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        match &mut self.store {
            Store::Own(v) => v.truncate(len),
            Store::Shared(chunks) => {
                let n = len.div_ceil(CHUNK);
                chunks.truncate(n);
                // What the last chunk keeps (all of it when `len` ends a chunk).
                let keep = len - n.saturating_sub(1) * CHUNK;
                if let Some(last) = chunks.last_mut()
                    && last.len() > keep
                {
                    Arc::make_mut(last).truncate(keep);
                }
            }
        }
        self.len = len;
    }

    /// Whether `self` and `other` share every chunk: the same entities, known without reading them.
    #[cfg(test)]
    pub(crate) fn shares_all(&self, other: &Entities) -> bool {
        match (&self.store, &other.store) {
            (Store::Shared(a), Store::Shared(b)) => {
                self.len == other.len && a.iter().zip(b).all(|(a, b)| Arc::ptr_eq(a, b))
            }
            _ => self.len == 0 && other.len == 0,
        }
    }
}

// A shared chunk's entity, to change: the chunk is copied first if another state shares it. Out of
// line, so that a game's own list is changed without the copy's code around it.
#[inline(never)]
fn shared_mut(chunks: &mut [Arc<Vec<Entity>>], id: usize) -> Option<&mut Entity> {
    let chunk = chunks.get_mut(id / CHUNK)?;
    if id % CHUNK >= chunk.len() {
        return None;
    }
    Arc::make_mut(chunk).get_mut(id % CHUNK)
}

impl std::ops::Index<usize> for Entities {
    type Output = Entity;
    #[inline(always)]
    fn index(&self, id: usize) -> &Entity {
        match &self.store {
            Store::Own(v) => &v[id],
            Store::Shared(chunks) => &chunks[id / CHUNK][id % CHUNK],
        }
    }
}

impl std::ops::IndexMut<usize> for Entities {
    #[inline]
    fn index_mut(&mut self, id: usize) -> &mut Entity {
        match &mut self.store {
            Store::Own(v) => &mut v[id],
            Store::Shared(chunks) => match shared_mut(chunks, id) {
                Some(e) => e,
                None => panic!("no entity {id} among {} in play", self.len),
            },
        }
    }
}

impl PartialEq for Entities {
    fn eq(&self, other: &Entities) -> bool {
        match (&self.store, &other.store) {
            (Store::Shared(a), Store::Shared(b)) => {
                self.len == other.len && a.iter().zip(b).all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
            }
            _ => self.len == other.len && self.iter().eq(other.iter()),
        }
    }
}

impl std::fmt::Debug for Entities {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Entity> for Entities {
    fn from_iter<I: IntoIterator<Item = Entity>>(iter: I) -> Entities {
        let mut out = Entities::default();
        for e in iter {
            out.push(e);
        }
        out
    }
}

impl From<Vec<Entity>> for Entities {
    fn from(v: Vec<Entity>) -> Entities {
        v.into_iter().collect()
    }
}

impl IntoIterator for Entities {
    type Item = Entity;
    type IntoIter = std::vec::IntoIter<Entity>;
    fn into_iter(self) -> Self::IntoIter {
        let chunks = match self.store {
            Store::Own(v) => return v.into_iter(),
            Store::Shared(chunks) => chunks,
        };
        let mut all = Vec::with_capacity(self.len);
        for chunk in chunks {
            match Arc::try_unwrap(chunk) {
                Ok(v) => all.extend(v),
                Err(shared) => all.extend(shared.iter().cloned()),
            }
        }
        all.into_iter()
    }
}

impl<'a> IntoIterator for &'a Entities {
    type Item = &'a Entity;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Entities {
    type Item = &'a mut Entity;
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl Serialize for Entities {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Entities {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entities, D::Error> {
        Vec::<Entity>::deserialize(d).map(Entities::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(i: usize) -> Entity {
        Entity { kind: 0, name: format!("u{i}"), fields: vec![crate::program::Value::Int(i as i64)] }
    }

    fn list(n: usize) -> Entities {
        (0..n).map(unit).collect()
    }

    #[test]
    fn reads_like_a_vec_across_chunks() {
        let e = list(CHUNK * 2 + 3);
        assert_eq!(e.len(), CHUNK * 2 + 3);
        let names: Vec<String> = e.iter().map(|e| e.name.clone()).collect();
        let want: Vec<String> = (0..CHUNK * 2 + 3).map(|i| format!("u{i}")).collect();
        assert_eq!(names, want);
        assert_eq!(e[CHUNK + 1].name, format!("u{}", CHUNK + 1));
        assert!(e.get(CHUNK * 2 + 3).is_none());
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            serde_json::to_string(&(0..CHUNK * 2 + 3).map(unit).collect::<Vec<_>>()).unwrap()
        );
    }

    #[test]
    fn a_change_to_a_copy_leaves_the_original_and_shares_the_rest() {
        let a = list(CHUNK * 3);
        let mut b = a.clone();
        assert!(b.shares_all(&a));
        b[CHUNK + 2].name = "changed".into();
        assert_eq!(a[CHUNK + 2].name, format!("u{}", CHUNK + 2), "the original kept its entity");
        assert_ne!(a, b);
        let (Store::Shared(ac), Store::Shared(bc)) = (&a.store, &b.store) else { panic!("shared") };
        assert!(Arc::ptr_eq(&ac[0], &bc[0]) && Arc::ptr_eq(&ac[2], &bc[2]));
        assert!(!Arc::ptr_eq(&ac[1], &bc[1]));
        b[CHUNK + 2].name = format!("u{}", CHUNK + 2);
        assert_eq!(a, b, "equal again, compared entity by entity where not shared");
    }

    #[test]
    fn remove_and_truncate_keep_every_chunk_but_the_last_full() {
        let mut e = list(CHUNK * 2 + 1);
        let gone = e.remove(3);
        assert_eq!(gone.name, "u3");
        assert_eq!(e.len(), CHUNK * 2);
        assert_eq!(e[3].name, "u4");
        e.push(unit(99));
        assert_eq!(e[CHUNK * 2].name, "u99");
        let copy = e.clone();
        e.truncate(CHUNK + 1);
        assert_eq!(e.len(), CHUNK + 1);
        assert_eq!(e.iter().count(), CHUNK + 1);
        assert_eq!(copy.len(), CHUNK * 2 + 1, "the copy kept its entities");
        e.truncate(0);
        assert!(e.is_empty() && matches!(&e.store, Store::Shared(c) if c.is_empty()));
        e.push(unit(7));
        assert_eq!(e[0].name, "u7");
        for x in &mut e {
            x.name.push('!');
        }
        assert_eq!(e[0].name, "u7!");
    }

    #[test]
    fn a_games_own_list_reads_and_changes_as_the_shared_one_does() {
        let mut own = Entities::default();
        let mut spent = vec![];
        own.clear_own(&mut spent);
        assert!(spent.is_empty());
        let mut shared = Entities::default();
        for i in 0..CHUNK + 5 {
            own.push(unit(i));
            shared.push(unit(i));
        }
        assert!(matches!(own.store, Store::Own(_)) && matches!(shared.store, Store::Shared(_)));
        assert_eq!(own, shared);
        assert_eq!(own.len(), CHUNK + 5);
        assert_eq!(own.get(CHUNK + 1).map(|e| e.name.as_str()), Some("u33"));
        assert!(own.get(CHUNK + 5).is_none() && own.get_mut(CHUNK + 5).is_none());
        own[2].name = "two".into();
        own.get_mut(3).unwrap().name = "three".into();
        assert_ne!(own, shared, "a change shows in the comparison");
        shared[2].name = "two".into();
        shared[3].name = "three".into();
        assert_eq!(own, shared);
        assert_eq!(own.remove(1).name, "u1");
        assert_eq!(shared.remove(1).name, "u1");
        own.truncate(CHUNK);
        shared.truncate(CHUNK);
        for e in &mut own {
            e.name.push('!');
        }
        for e in &mut shared {
            e.name.push('!');
        }
        assert_eq!(own, shared);
        assert!(own.iter().rev().map(|e| &e.name).eq(shared.iter().rev().map(|e| &e.name)));
        assert_eq!(serde_json::to_string(&own).unwrap(), serde_json::to_string(&shared).unwrap());
        let copy = own.clone();
        own[0].name = "changed".into();
        assert_eq!(copy[0].name, "u0!", "a copy of the own list is a copy of every entity");
        assert!(!own.shares_all(&copy));
        let names: Vec<String> = copy.into_iter().map(|e| e.name).collect();
        assert_eq!(names.len(), CHUNK);
        own.clear_own(&mut spent);
        assert!(own.is_empty() && own.iter().next().is_none());
        let spent: Vec<&str> = spent.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(spent.len(), CHUNK, "the entities that were are kept");
        // Taken from the end, they come back in the order they were made.
        assert_eq!(spent[CHUNK - 2..], ["two!", "changed"]);
    }
}

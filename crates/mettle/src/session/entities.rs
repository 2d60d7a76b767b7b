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
/// let names: Vec<&str> = s.state().entities.iter().map(|e| e.name.as_str()).collect();
/// assert_eq!(names, ["a", "b"]);
/// assert_eq!(s.state().entities[1].name, "b");
/// ```
#[derive(Clone, Default)]
pub struct Entities {
    // Every chunk but the last is full; none is empty.
    chunks: Vec<Arc<Vec<Entity>>>,
    len: usize,
}

/// The entities in order.
pub type Iter<'a> = std::iter::FlatMap<
    std::slice::Iter<'a, Arc<Vec<Entity>>>,
    std::slice::Iter<'a, Entity>,
    fn(&'a Arc<Vec<Entity>>) -> std::slice::Iter<'a, Entity>,
>;

/// The entities in order, to change (each chunk is copied first if another state shares it).
pub type IterMut<'a> = std::iter::FlatMap<
    std::slice::IterMut<'a, Arc<Vec<Entity>>>,
    std::slice::IterMut<'a, Entity>,
    fn(&'a mut Arc<Vec<Entity>>) -> std::slice::IterMut<'a, Entity>,
>;

fn read(chunk: &Arc<Vec<Entity>>) -> std::slice::Iter<'_, Entity> {
    chunk.iter()
}

fn own(chunk: &mut Arc<Vec<Entity>>) -> std::slice::IterMut<'_, Entity> {
    Arc::make_mut(chunk).iter_mut()
}

impl Entities {
    /// How many entities are in play.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entity with id `id`.
    pub fn get(&self, id: usize) -> Option<&Entity> {
        self.chunks.get(id / CHUNK)?.get(id % CHUNK)
    }

    /// The entity with id `id`, to change.
    pub fn get_mut(&mut self, id: usize) -> Option<&mut Entity> {
        let chunk = self.chunks.get_mut(id / CHUNK)?;
        if id % CHUNK >= chunk.len() {
            return None;
        }
        Arc::make_mut(chunk).get_mut(id % CHUNK)
    }

    /// The entities in order.
    pub fn iter(&self) -> Iter<'_> {
        self.chunks.iter().flat_map(read as fn(&Arc<Vec<Entity>>) -> std::slice::Iter<'_, Entity>)
    }

    /// The entities in order, to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        self.chunks.iter_mut().flat_map(own as fn(&mut Arc<Vec<Entity>>) -> std::slice::IterMut<'_, Entity>)
    }

    /// Puts `entity` in play with the next id.
    pub fn push(&mut self, entity: Entity) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => Arc::make_mut(last).push(entity),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(entity);
                self.chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }

    /// Takes the entity with id `id` out; those after it move down by one.
    ///
    /// # Panics
    /// If `id` is not in play, as `Vec::remove` does.
    pub fn remove(&mut self, id: usize) -> Entity {
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
        let chunks = len.div_ceil(CHUNK);
        self.chunks.truncate(chunks);
        // What the last chunk keeps (all of it when `len` ends a chunk).
        let keep = len - chunks.saturating_sub(1) * CHUNK;
        if let Some(last) = self.chunks.last_mut()
            && last.len() > keep
        {
            Arc::make_mut(last).truncate(keep);
        }
        self.len = len;
    }

    /// Whether `self` and `other` share every chunk: the same entities, known without reading them.
    #[doc(hidden)]
    pub fn shares_all(&self, other: &Entities) -> bool {
        self.len == other.len && self.chunks.iter().zip(&other.chunks).all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

impl std::ops::Index<usize> for Entities {
    type Output = Entity;
    fn index(&self, id: usize) -> &Entity {
        &self.chunks[id / CHUNK][id % CHUNK]
    }
}

impl std::ops::IndexMut<usize> for Entities {
    fn index_mut(&mut self, id: usize) -> &mut Entity {
        &mut Arc::make_mut(&mut self.chunks[id / CHUNK])[id % CHUNK]
    }
}

impl PartialEq for Entities {
    fn eq(&self, other: &Entities) -> bool {
        self.len == other.len
            && self.chunks.iter().zip(&other.chunks).all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
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
        let mut all = Vec::with_capacity(self.len);
        for chunk in self.chunks {
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
        assert!(Arc::ptr_eq(&a.chunks[0], &b.chunks[0]) && Arc::ptr_eq(&a.chunks[2], &b.chunks[2]));
        assert!(!Arc::ptr_eq(&a.chunks[1], &b.chunks[1]));
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
        assert!(e.is_empty() && e.chunks.is_empty());
        e.push(unit(7));
        assert_eq!(e[0].name, "u7");
        for x in &mut e {
            x.name.push('!');
        }
        assert_eq!(e[0].name, "u7!");
    }
}

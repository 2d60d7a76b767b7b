//! The entities of a session, kept in shared chunks: a copy of the state shares every chunk with the
//! original until one of them changes an entity in it, so keeping a state to go back to (an action's
//! rollback, the REPL's `:undo`) costs what the step changes, not what is in play.
//!
//! An entity's id is its place in the list, for the life of the session: a removed entity leaves a
//! tombstone in its place (its name, for the error that a use of its id gets), so no id ever moves
//! and none is given twice.

use super::Entity;
use crate::program::KindId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

// Entities a chunk holds: a change copies the chunk it falls in, and a copy of the list copies one
// pointer a chunk.
const CHUNK: usize = 32;

/// The kind of a tombstone: no ruleset has this many kinds, so a rule's scan of a kind (which
/// compares kinds, entity by entity) passes over a removed entity without asking.
pub(crate) const REMOVED: KindId = KindId::MAX;

/// The entities of a session, by id: ids are given in order from 0 and kept for the life of the
/// session. A removed entity keeps its id, unused, for good: [`Entities::get`] and
/// [`Entities::iter`] see only the entities in play, [`Entities::removed`] names the one an id had.
/// Copies of the list share what they have not changed.
///
/// ```
/// let rules = mettle::Ruleset::from_str("e.mettle", "kind unit { n: 0..9 = 0 }").unwrap();
/// let mut s = mettle::Session::new(&rules, 1);
/// s.create("unit", "a", &[]).unwrap();
/// let b = s.create("unit", "b", &[]).unwrap();
/// let c = s.create("unit", "c", &[]).unwrap();
/// s.remove_entity("b").unwrap();
/// let e = &s.state().entities();
/// let names: Vec<(u32, &str)> = e.iter().map(|(id, e)| (id, e.name.as_str())).collect();
/// assert_eq!(names, [(0, "a"), (2, "c")]);
/// assert_eq!(e.get(c).unwrap().name, "c");
/// assert!(e.get(b).is_none());
/// assert_eq!(e.removed(b), Some("b"));
/// assert_eq!((e.len(), e.slots()), (2, 3));
/// ```
#[derive(Clone)]
pub struct Entities {
    store: Store,
    // Ids given so far, tombstones included: the next id.
    slots: usize,
    // Tombstones among them.
    removed: usize,
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
        Entities { store: Store::Shared(vec![]), slots: 0, removed: 0 }
    }
}

/// The entities in play with their ids, in the order they were made: what [`Entities::iter`] and
/// `for (id, e) in state.entities()` go through.
#[derive(Clone)]
pub struct Iter<'a> {
    slots: IterIn<'a>,
    // The ids of the next slot from the front and of the one after the last from the back.
    front: u32,
    back: u32,
}

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

impl<'a> IterIn<'a> {
    fn next(&mut self) -> Option<&'a Entity> {
        match self {
            IterIn::Shared(i) => i.next(),
            IterIn::Own(i) => i.next(),
        }
    }

    fn next_back(&mut self) -> Option<&'a Entity> {
        match self {
            IterIn::Shared(i) => i.next_back(),
            IterIn::Own(i) => i.next_back(),
        }
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = (u32, &'a Entity);
    fn next(&mut self) -> Option<(u32, &'a Entity)> {
        loop {
            let e = self.slots.next()?;
            let id = self.front;
            self.front += 1;
            if e.kind != REMOVED {
                return Some((id, e));
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some((self.back - self.front) as usize))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            let e = self.slots.next_back()?;
            self.back -= 1;
            if e.kind != REMOVED {
                return Some((self.back, e));
            }
        }
    }
}

/// The entities in play with their ids, to change (each chunk is copied first if another state
/// shares it).
pub(crate) struct IterMut<'a> {
    slots: IterMutIn<'a>,
    next: u32,
}

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
    type Item = (u32, &'a mut Entity);
    fn next(&mut self) -> Option<(u32, &'a mut Entity)> {
        loop {
            let e = match &mut self.slots {
                IterMutIn::Shared(i) => i.next(),
                IterMutIn::Own(i) => i.next(),
            }?;
            let id = self.next;
            self.next += 1;
            if e.kind != REMOVED {
                return Some((id, e));
            }
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
    /// None in play and no id given, kept in one list of their own, for a state that nothing copies
    /// while it plays. The entities that were are added to `spent`, their names' and attributes'
    /// buffers to be used again: last first, so that taken from its end they come back in the order
    /// they were made (a game that makes the same kinds in the same order finds each buffer of the
    /// right size).
    pub(super) fn clear_own(&mut self, spent: &mut Vec<Entity>) {
        match &mut self.store {
            Store::Own(v) => spent.extend(v.drain(..).rev()),
            store => *store = Store::Own(vec![]),
        }
        self.slots = 0;
        self.removed = 0;
    }

    /// How many entities are in play (removed ones not counted).
    pub fn len(&self) -> usize {
        self.slots - self.removed
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many ids have been given, to entities in play and removed ones: the id the next entity
    /// gets. Every id below it is one of the two.
    #[inline]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The entity with id `id`, if it is in play.
    #[inline]
    pub fn get(&self, id: u32) -> Option<&Entity> {
        self.slot(id).filter(|e| e.kind != REMOVED)
    }

    /// What is at id `id`: the entity, or its tombstone if it was removed (kind [`REMOVED`], no
    /// attributes). For reads whose attribute lookup misses a tombstone anyway.
    #[inline]
    pub(crate) fn slot(&self, id: u32) -> Option<&Entity> {
        let id = id as usize;
        match &self.store {
            Store::Own(v) => v.get(id),
            Store::Shared(chunks) => chunks.get(id / CHUNK)?.get(id % CHUNK),
        }
    }

    /// The entity with id `id`, to change, if it is in play.
    #[inline]
    pub(crate) fn get_mut(&mut self, id: u32) -> Option<&mut Entity> {
        self.slot_mut(id).filter(|e| e.kind != REMOVED)
    }

    /// What is at id `id`, to change: [`Entities::slot`]'s counterpart.
    #[inline]
    pub(crate) fn slot_mut(&mut self, id: u32) -> Option<&mut Entity> {
        let id = id as usize;
        match &mut self.store {
            Store::Own(v) => v.get_mut(id),
            Store::Shared(chunks) => shared_mut(chunks, id),
        }
    }

    /// The name the entity with id `id` had, if it was removed.
    pub fn removed(&self, id: u32) -> Option<&str> {
        self.slot(id).filter(|e| e.kind == REMOVED).map(|e| e.name.as_str())
    }

    /// The entities in play with their ids, in the order they were made.
    pub fn iter(&self) -> Iter<'_> {
        let slots = match &self.store {
            Store::Own(v) => IterIn::Own(v.iter()),
            Store::Shared(chunks) => IterIn::Shared(
                chunks.iter().flat_map(read as fn(&Arc<Vec<Entity>>) -> std::slice::Iter<'_, Entity>),
            ),
        };
        Iter { slots, front: 0, back: self.slots as u32 }
    }

    /// The entities in play with their ids, to change.
    pub(crate) fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut {
            slots: match &mut self.store {
                Store::Own(v) => IterMutIn::Own(v.iter_mut()),
                Store::Shared(chunks) => IterMutIn::Shared(
                    chunks
                        .iter_mut()
                        .flat_map(own as fn(&mut Arc<Vec<Entity>>) -> std::slice::IterMut<'_, Entity>),
                ),
            },
            next: 0,
        }
    }

    /// Puts `entity` in play with the next id, and returns the id.
    pub(crate) fn push(&mut self, entity: Entity) -> u32 {
        let id = self.slots as u32;
        self.removed += usize::from(entity.kind == REMOVED);
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
        self.slots += 1;
        id
    }

    /// Gives the next id to an entity called `name` that is out of play already (one removed in a
    /// session being moved over to another ruleset), so that the ids after it stay as they were.
    pub(crate) fn push_removed(&mut self, name: String) -> u32 {
        self.push(Entity { kind: REMOVED, name, fields: vec![] })
    }

    /// Takes the entity with id `id` out of play and returns it; a tombstone keeps its place and
    /// its name, so no other id moves and `id` is not given again. `None` if `id` is not in play.
    pub(crate) fn remove(&mut self, id: u32) -> Option<Entity> {
        let e = self.get_mut(id)?;
        let tombstone = Entity { kind: REMOVED, name: e.name.clone(), fields: vec![] };
        let gone = std::mem::replace(e, tombstone);
        self.removed += 1;
        Some(gone)
    }

    /// Keeps the first `slots` ids (in play or removed) and lets the later ones go. Only the tests
    /// shorten the entities (to try the shared store's chunk edges); a session never does.
    #[cfg(test)]
    pub(crate) fn truncate(&mut self, slots: usize) {
        if slots >= self.slots {
            return;
        }
        let cut = (slots..self.slots).filter(|&i| self.removed(i as u32).is_some()).count();
        match &mut self.store {
            Store::Own(v) => v.truncate(slots),
            Store::Shared(chunks) => {
                let n = slots.div_ceil(CHUNK);
                chunks.truncate(n);
                // What the last chunk keeps (all of it when `slots` ends a chunk).
                let keep = slots - n.saturating_sub(1) * CHUNK;
                if let Some(last) = chunks.last_mut()
                    && last.len() > keep
                {
                    Arc::make_mut(last).truncate(keep);
                }
            }
        }
        self.slots = slots;
        self.removed -= cut;
    }

    /// Whether `self` and `other` share every chunk: the same entities, known without reading them.
    #[cfg(test)]
    pub(crate) fn shares_all(&self, other: &Entities) -> bool {
        match (&self.store, &other.store) {
            (Store::Shared(a), Store::Shared(b)) => {
                self.slots == other.slots && a.iter().zip(b).all(|(a, b)| Arc::ptr_eq(a, b))
            }
            _ => self.slots == 0 && other.slots == 0,
        }
    }

    // Every place, tombstones included, in order.
    fn all_slots(&self) -> IterIn<'_> {
        self.iter().slots
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

/// `entities[id]` reads what is at `id` without asking whether it is in play, for ids a rule holds
/// (which never name a removed entity: removing one makes every reference to it none). A removed
/// entity reads as its tombstone, with no attributes; use [`Entities::get`] for an id from
/// elsewhere.
///
/// # Panics
/// If `id` was never given, as a `Vec` does.
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
                None => panic!("no entity {id} among the {} ids given", self.slots),
            },
        }
    }
}

impl PartialEq for Entities {
    fn eq(&self, other: &Entities) -> bool {
        if self.slots != other.slots || self.removed != other.removed {
            return false;
        }
        match (&self.store, &other.store) {
            (Store::Shared(a), Store::Shared(b)) => a.iter().zip(b).all(|(a, b)| Arc::ptr_eq(a, b) || a == b),
            _ => {
                let (mut a, mut b) = (self.all_slots(), other.all_slots());
                std::iter::from_fn(|| a.next()).eq(std::iter::from_fn(|| b.next()))
            }
        }
    }
}

impl std::fmt::Debug for Entities {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
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
    /// The entities in play, in order (their ids are lost: see [`Entities::iter`]).
    fn into_iter(self) -> Self::IntoIter {
        let chunks = match self.store {
            Store::Own(mut v) => {
                v.retain(|e| e.kind != REMOVED);
                return v.into_iter();
            }
            Store::Shared(chunks) => chunks,
        };
        let mut all = Vec::with_capacity(self.slots - self.removed);
        for chunk in chunks {
            match Arc::try_unwrap(chunk) {
                Ok(v) => all.extend(v.into_iter().filter(|e| e.kind != REMOVED)),
                Err(shared) => all.extend(shared.iter().filter(|e| e.kind != REMOVED).cloned()),
            }
        }
        all.into_iter()
    }
}

impl<'a> IntoIterator for &'a Entities {
    type Item = (u32, &'a Entity);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

// In a save, each id in order: an entity in play as itself, a removed one as `{"removed": NAME}`.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Slot<E> {
    Removed { removed: String },
    Entity(E),
}

impl Serialize for Entities {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut all = self.all_slots();
        s.collect_seq(std::iter::from_fn(|| all.next()).map(|e| match e.kind {
            REMOVED => Slot::Removed { removed: e.name.clone() },
            _ => Slot::Entity(e),
        }))
    }
}

impl<'de> Deserialize<'de> for Entities {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entities, D::Error> {
        let mut out = Entities::default();
        for slot in Vec::<Slot<Entity>>::deserialize(d)? {
            match slot {
                Slot::Removed { removed } => {
                    out.push(Entity { kind: REMOVED, name: removed, fields: vec![] });
                }
                Slot::Entity(e) if e.kind == REMOVED => {
                    return Err(serde::de::Error::custom(format!("entity `{}` has no kind", e.name)));
                }
                Slot::Entity(e) => {
                    out.push(e);
                }
            }
        }
        Ok(out)
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

    fn names(e: &Entities) -> Vec<(u32, String)> {
        e.iter().map(|(id, e)| (id, e.name.clone())).collect()
    }

    #[test]
    fn reads_like_a_vec_across_chunks() {
        let e = list(CHUNK * 2 + 3);
        assert_eq!((e.len(), e.slots()), (CHUNK * 2 + 3, CHUNK * 2 + 3));
        let want: Vec<(u32, String)> = (0..CHUNK * 2 + 3).map(|i| (i as u32, format!("u{i}"))).collect();
        assert_eq!(names(&e), want);
        assert_eq!(e[CHUNK + 1].name, format!("u{}", CHUNK + 1));
        assert!(e.get((CHUNK * 2 + 3) as u32).is_none());
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
    fn a_removed_entity_keeps_its_id_and_moves_no_other() {
        let mut e = list(CHUNK * 2 + 1);
        let copy = e.clone();
        let gone = e.remove(3).unwrap();
        assert_eq!(gone.name, "u3");
        assert_eq!((e.len(), e.slots()), (CHUNK * 2, CHUNK * 2 + 1));
        assert_eq!(e.get(4).unwrap().name, "u4", "the next id names the same entity");
        assert!(e.get(3).is_none() && e.get_mut(3).is_none());
        assert_eq!(e.removed(3), Some("u3"));
        assert_eq!((e.removed(4), e.removed(999)), (None, None));
        assert!(e.remove(3).is_none(), "removed once only");
        assert!(!names(&e).iter().any(|(id, _)| *id == 3), "iter passes over it");
        assert_eq!(e.iter().next_back().map(|(id, _)| id), Some((CHUNK * 2) as u32));
        assert_eq!(e.iter_mut().nth(3).map(|(id, _)| id), Some(4));
        assert_eq!(e.into_iter().count(), CHUNK * 2);
        assert_eq!(copy.len(), CHUNK * 2 + 1, "the copy kept it");
        let mut e = copy;
        e.remove(3);
        assert_eq!(e.push(unit(99)), (CHUNK * 2 + 1) as u32, "a new entity gets a new id");
        assert_eq!(e.get((CHUNK * 2 + 1) as u32).unwrap().name, "u99");
        assert_eq!(e.slot(3).map(|t| t.kind), Some(REMOVED), "a scan of a kind reads a tombstone's kind");
    }

    #[test]
    fn tombstones_save_and_load_in_their_places() {
        let mut e = list(5);
        e.remove(1);
        e.remove(4);
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains(r#"{"removed":"u1"}"#), "{json}");
        let back: Entities = serde_json::from_str(&json).unwrap();
        assert_eq!(back, e);
        assert_eq!((back.len(), back.slots(), back.removed(4)), (3, 5, Some("u4")));
        // An entity of the tombstones' kind would hide among them: refused.
        let forged = json.replacen(r#""kind":0"#, &format!(r#""kind":{REMOVED}"#), 1);
        assert!(serde_json::from_str::<Entities>(&forged).is_err());
        // A list from before tombstones loads as it was.
        let old: Entities = serde_json::from_str(&serde_json::to_string(&list(2)).unwrap()).unwrap();
        assert_eq!(old, list(2));
    }

    #[test]
    fn truncate_keeps_every_chunk_but_the_last_full() {
        let mut e = list(CHUNK * 2 + 1);
        e.remove(3);
        e.remove(CHUNK as u32 + 2);
        let copy = e.clone();
        e.truncate(CHUNK + 1);
        assert_eq!((e.len(), e.slots()), (CHUNK, CHUNK + 1), "one tombstone kept, one let go");
        assert_eq!(e.iter().count(), CHUNK);
        assert_eq!(copy.len(), CHUNK * 2 - 1, "the copy kept its entities");
        e.truncate(0);
        assert!(e.is_empty() && matches!(&e.store, Store::Shared(c) if c.is_empty()));
        assert_eq!(e.push(unit(7)), 0);
        assert_eq!(e[0].name, "u7");
        for (_, x) in e.iter_mut() {
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
        assert_eq!(own.get(CHUNK as u32 + 1).map(|e| e.name.as_str()), Some("u33"));
        assert!(own.get(CHUNK as u32 + 5).is_none() && own.get_mut(CHUNK as u32 + 5).is_none());
        own[2].name = "two".into();
        own.get_mut(3).unwrap().name = "three".into();
        assert_ne!(own, shared, "a change shows in the comparison");
        shared[2].name = "two".into();
        shared[3].name = "three".into();
        assert_eq!(own, shared);
        assert_eq!(own.remove(1).map(|e| e.name), Some("u1".into()));
        assert_ne!(own, shared, "a removal shows in the comparison");
        assert_eq!(shared.remove(1).map(|e| e.name), Some("u1".into()));
        own.truncate(CHUNK);
        shared.truncate(CHUNK);
        for (_, e) in own.iter_mut() {
            e.name.push('!');
        }
        for (_, e) in shared.iter_mut() {
            e.name.push('!');
        }
        assert_eq!(own, shared);
        assert_eq!(names(&own), names(&shared));
        assert!(own.iter().rev().map(|(id, _)| id).eq(shared.iter().rev().map(|(id, _)| id)));
        assert_eq!(serde_json::to_string(&own).unwrap(), serde_json::to_string(&shared).unwrap());
        let copy = own.clone();
        own[0].name = "changed".into();
        assert_eq!(copy[0].name, "u0!", "a copy of the own list is a copy of every entity");
        assert!(!own.shares_all(&copy));
        let names: Vec<String> = copy.into_iter().map(|e| e.name).collect();
        assert_eq!(names.len(), CHUNK - 1);
        own.clear_own(&mut spent);
        assert!(own.is_empty() && own.iter().next().is_none() && own.slots() == 0);
        let spent: Vec<&str> = spent.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(spent.len(), CHUNK, "the entities that were are kept");
        // Taken from the end, they come back in the order they were made.
        assert_eq!(spent[CHUNK - 2..], ["u1", "changed"]);
    }
}

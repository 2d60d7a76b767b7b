//! Exact odds of a roll read through its sorted dice: `highest(dice, k)`, `lowest(dice, k)`, and a roll
//! that keeps or drops dice read by more than its total (counts, single dice, the natural die). The
//! state after each die is how many dice show each face (the dice sorted) and the faces of the few
//! dice read by their place; every kept die, count, highest and lowest follows from that, so each
//! state is settled once by the check's own rules with a roll that reaches it.

use super::Weight;
use super::check::die;
use crate::ast::DiceMod;
use crate::diagnostics::Diagnostic;
use crate::dice::DieStep;
use crate::program::Check;
use crate::session::{DiceSpec, Prepared, Session, Settled};
use num_bigint::BigUint;
use std::collections::HashMap;

/// Settled rolls, each with its weight (and index 0: sorted rolls have no table to sample).
type SettledRolls = Vec<(BigUint, Settled, usize)>;

/// Most states (sorted rolls, with the faces of the dice read by place) followed exactly.
pub const MAX_STATES: usize = 200_000;

/// The settled rolls of `spec` (weight, what they settle to), each distinct sorted roll once, or why
/// that is out of reach. `places` are the dice (from 0) read by their place.
pub fn odds(
    session: &mut Session,
    prepared: &Prepared,
    c: &Check,
    spec: &DiceSpec,
    places: &[usize],
) -> Result<Result<SettledRolls, String>, Diagnostic> {
    // A reroll or raise written after a keep or drop changes kept dice after they were chosen: the
    // sorted faces no longer say which were kept.
    let first_keep = spec.mods.iter().position(DiceMod::selects);
    if let Some(k) = first_keep
        && let Some(step) = spec.mods[k..].iter().find_map(DieStep::of)
    {
        let (does, what, example) = match step {
            DieStep::Reroll { .. } => ("rerolls", "reroll", "4d6r1kh3"),
            DieStep::Raise(_) => ("raises", "raise", "4d6min2kh3"),
        };
        return Ok(Err(format!(
            "check `{}` {does} dice after keeping or dropping some and reads more than the roll's total; to \
             make it exact, write the {what} before the keep (`{example}`)",
            c.name
        )));
    }
    let states = match states::<u128>(spec, places) {
        Ok(Some(s)) => s.into_iter().map(|(w, f)| (w.to_big(), f)).collect(),
        Ok(None) => match states::<BigUint>(spec, places) {
            Ok(Some(s)) => s,
            Ok(None) => return Ok(Err(super::work::reason())),
            Err(why) => return Ok(Err(why)),
        },
        Err(why) => return Ok(Err(why)),
    };
    // Each state's roll, as the roller builds it from those faces (its rerolls and raises already in
    // the weights): which dice are kept, and the value.
    let mods: Vec<DiceMod> = spec.mods.iter().filter(|m| DieStep::of(m).is_none()).copied().collect();
    let mut pools = Vec::with_capacity(states.len());
    for (_, faces) in &states {
        let mut forced: std::collections::VecDeque<i64> = faces.iter().copied().collect();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
        let src = &mut crate::dice::Source {
            rng: &mut rng,
            forced: &mut forced,
            walk: None,
            host: None,
            notation: "",
        };
        match crate::dice::roll(spec.count, spec.faces.faces(), &mods, src) {
            Ok(p) => pools.push(Some(p)),
            Err(why) => return Ok(Err(why.message().to_string())),
        }
    }
    let settled = session.settle_all(prepared, pools)?;
    Ok(Ok(states.into_iter().zip(settled).map(|((w, _), s)| (w, s, 0)).collect()))
}

/// Each state a roll reaches, with its weight and one roll (faces in order) that reaches it. `None`
/// when the weights overflow `W` or the budget of work runs out; `Err` when there are too many states.
#[allow(clippy::type_complexity, reason = "weights with the roll that stands for them")]
fn states<W: Weight>(spec: &DiceSpec, places: &[usize]) -> Result<Option<Vec<(W, Vec<i64>)>>, String> {
    let Some(die) = die::<W>(spec) else { return Ok(None) };
    let faces: Vec<i64> = die.iter().map(|(f, _)| *f).collect();
    // A state: for each place read, the face's position in `faces`; then the positions of every die's
    // face so far, sorted (the dice as a multiset, as long as the dice rolled, whatever the faces).
    let lead = places.len();
    let mut now: HashMap<Vec<u32>, W> = HashMap::from([(vec![0u32; lead], W::one())]);
    for i in 0..spec.count {
        let place = places.iter().position(|&p| p == i);
        let mut next: HashMap<Vec<u32>, W> = HashMap::with_capacity(now.len() * 2);
        for (key, w) in &now {
            for (fi, (_, wf)) in die.iter().enumerate() {
                if !super::work::charge(key.len() as u64 / 8 + 1) {
                    return Ok(None);
                }
                let fi = fi as u32;
                let mut k = Vec::with_capacity(key.len() + 1);
                k.extend_from_slice(key);
                let at = lead + k[lead..].partition_point(|&x| x <= fi);
                k.insert(at, fi);
                if let Some(p) = place {
                    k[p] = fi;
                }
                let Some(add) = w.mul(wf) else { return Ok(None) };
                let slot = next.entry(k).or_insert_with(W::zero);
                if slot.add_to(&add).is_none() {
                    return Ok(None);
                }
            }
            if next.len() > MAX_STATES {
                return Err(format!(
                    "the roll ({} dice) has more than {MAX_STATES} distinct sorted results to follow exactly \
                     (`highest`, `lowest`, or a keep or drop read by more than its total); counting faces \
                     instead follows far more dice exactly (`count(dice, 6) >= 2` for two sixes)",
                    spec.count
                ));
            }
        }
        now = next;
    }
    let mut out: Vec<(Vec<u32>, W)> = now.into_iter().collect();
    // The same order on every run, whatever the hash map did.
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(Some(
        out.into_iter()
            .map(|(key, w)| {
                let mut rest: Vec<u32> = key[lead..].to_vec();
                let mut roll = vec![None; spec.count];
                for (k, &p) in places.iter().enumerate() {
                    roll[p] = Some(faces[key[k] as usize]);
                    if let Some(at) = rest.iter().position(|&x| x == key[k]) {
                        rest.remove(at);
                    }
                }
                let mut rest = rest.into_iter().map(|fi| faces[fi as usize]);
                let roll: Vec<i64> =
                    roll.into_iter().map(|f| f.or_else(|| rest.next()).unwrap_or(0)).collect();
                (w, roll)
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::FaceSpec;

    #[test]
    fn sorted_states_of_two_dice_with_the_first_read() {
        let spec = DiceSpec { count: 2, faces: FaceSpec::Count(6), mods: vec![] };
        let s = states::<u128>(&spec, &[0]).unwrap().unwrap();
        // The first die with the other's face: every ordered pair, 36 states of weight 1.
        assert_eq!(s.len(), 36);
        assert!(s.iter().all(|(w, _)| *w == 1));
        let s = states::<u128>(&spec, &[]).unwrap().unwrap();
        // Unordered pairs: 6 doubles of weight 1 and 15 pairs of weight 2.
        assert_eq!(s.len(), 21);
        assert_eq!(s.iter().filter(|(w, _)| *w == 2).count(), 15);
        assert_eq!(s.iter().map(|(w, _)| *w).sum::<u128>(), 36);
    }
}

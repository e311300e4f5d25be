extension FrameMemoryBudget {
    /// What the budget gives back, and in which order (``FrameMemoryBudget``'s
    /// description): decisions read from the ledger alone, with no source
    /// called and nothing given back here. ``FrameMemoryBudget`` applies
    /// them.
    enum EvictionPolicy {
        /// The next thing to give back, by the order in ``FrameMemoryBudget``'s description:
        /// lowest class first, least recently used within a class. With
        /// `atShare` (a playing requester's room: whether it is at its fair
        /// share), frames of other playing caches
        /// within their fair share are not taken, nor any other playing cache's
        /// when the requester is at its own share; those over it go before the
        /// requester's own frames.
        static func victim(
            in ledger: Ledger, requester: Int?, protecting: [Int]?, keepingWork: Bool, atShare: Bool?,
            trimmed: Set<Trimmed>
        ) -> Victim? {
            var best: Victim?
            var bestRank = (Int.max, UInt64.max)
            for (key, held) in ledger.frames {
                if let protecting, key.member == requester, protecting.contains(key.index) { continue }
                guard let member = ledger.members[key.member] else { continue }
                let playing = member.playing > 0
                var rank = key.index == 0 ? (playing ? 6 : 5) : (playing ? 2 : 1)
                if let atShare, playing {
                    if key.member == requester {
                        if key.index != 0 { rank = 3 }
                    } else if atShare || member.frameBytes <= member.share {
                        continue
                    }
                }
                if (rank, held.lastUse) < bestRank {
                    bestRank = (rank, held.lastUse)
                    best = .frame(key)
                }
            }
            for (id, member) in ledger.members where member.stateBytes > 0 && id != requester {
                guard let budgeted = member.budgeted else { continue }
                // A playing source gives back only what it does not need to go on.
                let keeps = keepingWork && member.playing > 0
                if keeps, member.stateBytes <= member.facts.working { continue }
                if trimmed.contains(Trimmed(id: id, keepingWork: keeps)) { continue }
                let rank = member.playing > 0 ? 4 : 0
                if (rank, member.lastUse) < bestRank {
                    bestRank = (rank, member.lastUse)
                    best = .state(StateTrim(
                    id: id, source: budgeted, keepingWork: keeps, target: keeps ? member.facts.working : 0,
                    countedBefore: member.stateBytes))
                }
            }
            return best
        }

        /// For a reservation of `bytes` by member `id`: whether it would take
        /// the member past its fair share, with every playing member's
        /// ``Member/share`` worked out; `nil` (the plain order) when it is not
        /// playing.
        static func atFairShare(_ id: Int, adding bytes: Int, in ledger: Ledger) -> Bool? {
            guard let member = ledger.members[id], member.playing > 0 else { return nil }
            assignFairShares(ledger)
            return member.frameBytes > member.share - min(member.share, bytes)
        }

        /// Sets each playing member's ``Member/share``: the max-min fair share
        /// of the frame room (the limit less the decoding state), where each
        /// gets its whole need or a common level, whichever is less, and the
        /// needs below the level plus the level for each of the rest fill the
        /// room. Allocates nothing; each need is read from its source once.
        static func assignFairShares(_ ledger: Ledger) {
            var room = clamped(max(0, Int128(ledger.limit) - ledger.stateBytes))
            var open = 0
            for member in ledger.members.values where member.playing > 0 {
                member.share = member.facts.need
                member.shareFixed = false
                open += 1
            }
            while open > 0 {
                let level = room / open
                var changed = false
                for member in ledger.members.values where member.playing > 0 && !member.shareFixed && member.share < level {
                    member.shareFixed = true
                    room -= member.share
                    open -= 1
                    changed = true
                }
                guard changed else {
                    for member in ledger.members.values where member.playing > 0 && !member.shareFixed {
                        member.share = level
                    }
                    return
                }
            }
        }
    }
}

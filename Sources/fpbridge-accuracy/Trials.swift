import FPMatching
import FoundationEssentials

/// One identification to play: an id, and the probe prints of its touches in order (the
/// first touch, then the next impression when the rule asks for another touch). `claim`: the
/// person the touch is compared with alone (badge and finger), nil for everyone.
struct Trial: Sendable {
    let id: String
    let touches: [String]
    var claim: String? = nil
}

/// The new rule over every trial at every target stranger rate, touches fed as the rule asks.
struct TrialRunner {
    let gallery: [PrintFile]
    let persons: [String]
    let samples: Int
    let jobs: Int
    let cache: ScoreCache
    /// The impostor tail the new rule's threshold is computed from.
    let tail: ImpostorTail

    /// Sample comparisons one touch makes: each print's distinct samples, up to `samples`.
    var comparisons: Int { comparisons(claim: nil) }

    /// Those of the claimed person's prints alone, or of every print.
    func comparisons(claim: String?) -> Int {
        zip(gallery, persons).reduce(0) { sum, pair in
            claim == nil || pair.1 == claim ? sum + min(pair.0.samples.count, samples) : sum
        }
    }

    /// The touches after the first that some rule asked for: how many were scored, and how
    /// many of their comparisons met the step cap (cached scores included).
    struct LaterTouches {
        var probes = 0
        var capped = 0
    }

    /// One line of output: what the rule decided for a trial at a target, after how many touches.
    struct Outcome {
        let trial: String
        let target: Double
        let decision: Decision
        let rule: IdentificationRule
        let touches: Int

        var json: String {
            let (kind, index): (String, String) = switch decision {
            case .identified(let galleryIndex): ("identified", String(galleryIndex))
            case .noMatch: ("noMatch", "null")
            case .anotherTouch: ("anotherTouch", "null")
            }
            return #"{"trial":"\#(trial)","target":\#(target),"decision":"\#(kind)","index":\#(index),"rule":"\#(rule.rawValue)","touches":\#(touches)}"#
        }
    }

    /// Plays every trial at every target; `first` holds the trials' first-touch rows (in
    /// trial order). Rows of later touches are computed (and cached) when a rule asks.
    func run(_ trials: [Trial], first: ScoreRows, targets: [Double]) throws -> (outcomes: [Outcome], later: LaterTouches) {
        var rows: [String: [Int16]] = [:]
        for (trial, row) in zip(trials, first.rows) { rows[trial.touches[0]] = row }
        // touches[t][k]: the touches trial t has been given at target k; pending at the end means another touch.
        var given = Array(repeating: Array(repeating: 1, count: targets.count), count: trials.count)
        var decisions = Array(repeating: Array(repeating: (Decision.noMatch, IdentificationRule.belowThreshold), count: targets.count),
                              count: trials.count)
        let comparisons = trials.map { self.comparisons(claim: $0.claim) }
        var later = LaterTouches()
        var open = Set<[Int]>()
        for t in trials.indices { for k in targets.indices { open.insert([t, k]) } }
        while !open.isEmpty {
            let needed = Set(open.map { trials[$0[0]].touches[given[$0[0]][$0[1]] - 1] }).filter { rows[$0] == nil }.sorted()
            if !needed.isEmpty {
                let probes = try PrintFile.readAll(needed, jobs: jobs)
                let computed = try ScoreRows.compute(probes: probes, gallery: gallery, samples: samples, jobs: jobs,
                                                     cache: cache, label: "touch \(given.flatMap { $0 }.max() ?? 1)")
                for (path, row) in zip(needed, computed.rows) { rows[path] = row }
                later.probes += needed.count
                later.capped += computed.rows.reduce(0) { $0 + $1.count(where: { $0 == SampleScores.workLimit }) }
            }
            var still = Set<[Int]>()
            // Each trial's candidate lists are built once a round, for all its open targets.
            for (t, pairs) in Dictionary(grouping: open, by: { $0[0] }) {
                let most = pairs.map { given[t][$0[1]] }.max()!
                let lists = trials[t].touches.prefix(most).map { candidates(rows[$0]!, claim: trials[t].claim) }
                for pair in pairs {
                    let k = pair[1]
                    let decided = NewRule.decide(Array(lists.prefix(given[t][k])), comparisons: comparisons[t],
                                                 targetStrangerRate: targets[k], tail: tail)
                    decisions[t][k] = decided
                    if decided.0 == .anotherTouch, given[t][k] < trials[t].touches.count {
                        given[t][k] += 1
                        still.insert(pair)
                    }
                }
            }
            open = still
        }
        let outcomes = trials.indices.flatMap { t in
            targets.indices.map { k in
                Outcome(trial: trials[t].id, target: targets[k], decision: decisions[t][k].0, rule: decisions[t][k].1, touches: given[t][k])
            }
        }
        return (outcomes, later)
    }

    /// Every print's candidate, or only the claimed person's prints (as fpbridged builds a
    /// claimed identification's gallery).
    private func candidates(_ row: [Int16], claim: String?) -> [ScoredCandidate] {
        gallery.indices.filter { claim == nil || persons[$0] == claim }.map { index in
            let base = index * SampleScores.slots
            return ScoredCandidate(person: persons[index], galleryIndex: index,
                                   score: SampleScores.printScore(row[base..<base + SampleScores.slots]))
        }
    }
}

/// One named shrink pass: a function that proposes simpler candidates for the current best
/// sequence and reports whether any was accepted.
///
/// The shrinker holds its passes as data: it keeps statistics per pass and, after every round,
/// reorders the passes of a tier so that those that removed choices run first, then those that
/// improved otherwise, then those that did nothing (Hypothesis' `fixate_shrink_passes`).
package struct ShrinkPass: Sendable, CustomStringConvertible {
    /// How costly a pass is: cheap passes run to a fixed point first; expensive ones run, one
    /// at a time, only when no cheap pass can improve.
    package enum Tier: Int, Sendable, Comparable {
        case cheap = 0, expensive = 1
        package static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    package let name: String
    package let tier: Tier
    let body: @Sendable (Shrinker) -> Bool

    init(_ name: String, _ tier: Tier, _ body: @escaping @Sendable (Shrinker) -> Bool) {
        self.name = name
        self.tier = tier
        self.body = body
    }

    package var description: String { name }

    /// Deletes blocks of whole state-machine steps, halving block sizes down to single steps.
    package static let deleteSteps = ShrinkPass("delete-steps", .cheap) { $0.deleteSteps() }
    /// Deletes the abandoned attempts of a step: an action drawn before the step's last `.command`
    /// span whose arguments found nothing, with what it drew, so the later choice names the action.
    package static let deleteAbandonedCommands = ShrinkPass("delete-abandoned-commands", .cheap) { $0.deleteAbandonedCommands() }
    /// Deletes each element span, lowering its list's size when the size was drawn just before; a
    /// deletion that breaks an assumption is also tried with the values pointing past it one lower.
    package static let deleteElements = ShrinkPass("delete-elements", .cheap) { $0.deleteElements() }
    /// Sets every choice of a span to zero.
    package static let zeroSpans = ShrinkPass("zero-spans", .cheap) { $0.zeroSpans() }
    /// Replaces a span by a descendant span with the same label (collapses recursion).
    package static let replaceWithDescendant = ShrinkPass("replace-with-descendant", .cheap) { $0.replaceWithDescendants() }
    /// Lowers each choice as far as it goes (0, 1, then binary search); a value that makes a filter
    /// reject its try is refitted to the next one below that the filter keeps.
    package static let minimiseChoices = ShrinkPass("minimise-choices", .cheap) { $0.minimiseChoices() }
    /// Lowers choices holding the same value together (values that must stay equal).
    package static let lowerDuplicates = ShrinkPass("lower-duplicates", .cheap) { $0.lowerDuplicates() }
    /// Swaps adjacent sibling spans that are out of order.
    package static let sortSiblings = ShrinkPass("sort-siblings", .cheap) { $0.sortSiblings() }
    /// Deletes blocks of two choices that start a span, not an integer's (joins lists).
    package static let deleteBlocks = ShrinkPass("delete-blocks", .expensive) { $0.deleteBlocks() }
    /// Deletes a span whose deletion alone was discarded or passed, and in the same candidate lowers
    /// a nearby choice: the next step's command, a choice of the step before, a list's size, a value
    /// that indexed the deleted element.
    package static let deleteSpanLowerNeighbour = ShrinkPass("delete-span-lower-neighbour", .expensive) { $0.deleteSpanLoweringNeighbour() }
    /// Lowers the first choice of a span and keeps only what the generator then consumed for that
    /// span, realigning the choices after it.
    package static let lowerAndRealign = ShrinkPass("lower-and-realign", .expensive) { $0.lowerAndRealign() }
    /// For pairs of nearby choices: lowers both by the same amount (keeps their order and
    /// difference) or moves an amount from the first to the second (keeps their sum).
    package static let redistribute = ShrinkPass("redistribute", .expensive) { $0.redistribute() }
    /// Lowers a choice in a list to a smaller value another choice of the list with the same bound
    /// holds (sequences without state-machine steps only).
    package static let lowerToHeldValue = ShrinkPass("lower-to-held-value", .expensive) { $0.lowerToHeldValue() }

    /// Every pass, in the order a shrink starts with.
    package static let standard: [ShrinkPass] = [
        lowerParameters, removeDiscarded, deleteSteps, deleteAbandonedCommands, deleteElements, zeroSpans, replaceWithDescendant, lowerDuplicates, minimiseChoices, sortSiblings,
        deleteBlocks, deleteSpanLowerNeighbour, lowerAndRealign, redistribute, moveStep, replaceStepAction, changeConfigDeletingSteps,
        changeConfigDeletingStepRepointing, lowerToHeldValue, deleteStepRepoint, lowerSchedulePicks, redistributeAcrossSchedules,
        deleteBranchLowerValue,
    ]

    /// The standard pass called `name`, if any.
    package static func named(_ name: String) -> ShrinkPass? { standard.first { $0.name == name } }
}

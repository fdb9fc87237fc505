import GlassSync
import GraphFuzzEngine
import SyncSpec

/// The world a case starts from, drawn with its configuration (Hypothesis' `@initialize` rules): the blank world
/// (phase 0, three empty projects), the migration already rolled out (phase 1), or rolled out over glass items
/// that device A had added to the ProjectStep `v3`, so that both devices hold them. Sync bugs of the entity design
/// need items both devices hold; a blank start spends two steps or more (an addition and a migration) on that
/// before anything can go wrong.
///
/// A start is part of the case and printed with its configuration (`config(granularity: "record", migrated: true,
/// shared: 1)`); it stands for the steps `addItem(device: "A", project: v3, collection: "glassItems", code: k)` for
/// k in 0..<shared, then `migrate()`, and the shared items are `v4`, `v5`, … in that order. Counted steps are the
/// case's own, after the start.
public struct SyncStart: Sendable, Equatable {
    /// Whether the phase-1 migration was rolled out before the case.
    public var migrated: Bool
    /// Glass items of `v3` both devices hold (added on A before the migration; only with `migrated`).
    public var shared: Int

    public init(migrated: Bool, shared: Int) {
        self.migrated = migrated
        self.shared = migrated ? shared : 0
    }

    /// The blank world (not migrated, no shared item): what a configuration without a start reads as.
    public static let blank = SyncStart(migrated: false, shared: 0)

    /// Blank (weight 2: phase 0 and the migration itself need testing), migrated with no item, one or two shared items.
    static let weights: [UInt32] = [2, 1, 1, 1]
    static let sharedLimit = 3

    /// A start drawn by weight; the first (the blank world) is the simplest, where shrinking goes. Traced as
    /// `migrated: true, shared: k` (nothing for the blank world: a trace without them reads as blank).
    static func draw(_ args: inout Arguments) -> SyncStart {
        var drawn = 0
        let migrated = args.bool("migrated", default: false) { draw in
            drawn = draw.chooseWeighted(weights)
            return drawn > 0
        }
        guard migrated else { return .blank }
        return SyncStart(migrated: true, shared: args.int("shared", in: 0...sharedLimit) { _ in drawn - 1 })
    }

    /// The ProjectStep `v3` (the initial projects are log, plan, step) and its one array.
    static let project = 2

    /// Steps the specification through the start.
    func apply(to model: inout SyncSpecModel) {
        for k in 0..<shared { _ = model.addItem(0, project: Self.project, .glassItems, code: k % 4) }
        if migrated { model.rollOutNextPhase() }
    }

    /// Runs the start on the system, binding the shared items to `v4`, `v5`, ….
    func apply(to system: inout SyncSystem) throws {
        let project = system.ids[Self.project]
        for k in 0..<shared {
            let id = try system.world.addItem(on: 0, project: project, .glassItems, code: k % 4)
            let ref = system.ids.count
            system.bind(ref, id)
            system.owners[ref] = (Self.project, .glassItems)
        }
        if migrated { try system.world.rollOutNextPhase() }
    }

    /// The start as Swift lines of an exported reproduction (after `v1`–`v3` are bound).
    var swiftLines: [String] {
        var lines: [String] = []
        for k in 0..<shared {
            let name = "v\(Self.project + 2 + k)"
            lines.append("let \(name) = try world.addItem(on: 0, project: v\(Self.project + 1), .glassItems, code: \(k % 4)); _ = \(name)")
        }
        if migrated { lines.append("try world.rollOutNextPhase()") }
        return lines
    }
}

package import FaultPoints

/// How CloudKit-style last-writer-wins treats concurrent saves of one record (R30: the
/// granularity is undocumented, so both are supported and fuzzed).
public enum ConflictGranularity: String, Sendable, CaseIterable {
    /// The last push replaces the whole record.
    case record
    /// The last push replaces only the fields it changed.
    case field
}

/// The faults GlassSync runs with: faulty variants of the seed's design, each a `Fault<SyncWorld>` declared
/// beside its branch. `.production` (none) is the design the seed proposes.
package typealias SyncStrategy = Faults<SyncWorld>

extension Faults<SyncWorld> {
    /// The design the seed proposes, without faults.
    package static var production: Self { .shipped }
}

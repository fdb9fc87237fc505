/// One work a mapping returned, as the comparison sees it.
public struct MappedWork: Hashable, Sendable, CustomStringConvertible {
    /// The work's reference index (`v1` is 0).
    public var ref: Int
    public var work: CanonicalWork
    /// Registered in the mapper's context and not deleted, and so before the step unless the step created it (a work
    /// the step brought back from a rollback, a deletion or an abandoned context is not live).
    public var isLive: Bool

    public init(ref: Int, work: CanonicalWork, isLive: Bool = true) {
        self.ref = ref
        self.work = work
        self.isLive = isLive
    }

    public var description: String { "v\(ref + 1)\(isLive ? "" : " (not live)"): \(work)" }
}

/// Why a sync-world operation was refused; each case names what and where.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchDevice(Int)
    case unknownProject(RecordID, device: Int)
    case unknownItem(RecordID, device: Int)
    case collectionNotOnModel(ProjectCollection, ProjectKind)
    case notOrdered(ProjectCollection)
    case noQuantity(ProjectCollection)
    case positionOutOfRange(Int, count: Int)
    case phaseTransition(from: MigrationPhase, String)
    case corruptImage(offset: Int, String)
    /// A device's saved rows do not read back as the sync layer's rows.
    case corruptStore(String)
    /// A device's context refused to save.
    case storeSave(String)

    public var description: String {
        switch self {
        case .noSuchDevice(let d): return "no device \(d)"
        case .unknownProject(let id, let d): return "project \(id) is not on device \(d)"
        case .unknownItem(let id, let d): return "item \(id) is not on device \(d)"
        case .collectionNotOnModel(let c, let k): return "\(k.rawValue) has no \(c.rawValue)"
        case .notOrdered(let c): return "\(c.rawValue) has no order"
        case .noQuantity(let c): return "\(c.rawValue) has no quantity"
        case .positionOutOfRange(let i, let n): return "position \(i) outside 0...\(n)"
        case .phaseTransition(let from, let why): return "cannot leave phase \(from.rawValue): \(why)"
        case .corruptImage(let offset, let why): return "store image corrupt at byte \(offset): \(why)"
        case .corruptStore(let why): return "device store unreadable: \(why)"
        case .storeSave(let why): return "device store save failed: \(why)"
        }
    }
}

import GraphFuzzEngine

/// An object of the specification: a project or an item of one array. Its index is its `Ref` index.
public struct SpecObject: Sendable, Equatable {
    public var isProject: Bool
    public var kind: SpecProjectKind
    /// For items: the owning project's index.
    public var owner: Int32
    public var collection: SpecCollection
    public var code: Int
    /// The identity order: creating device (0 for the server's seed data), then serial.
    public var sortKey: UInt64
}

/// Where an object stands on one device.
public enum SpecState: UInt8, Sendable {
    case absent, present
    /// Deleted here, not yet pushed.
    case deletedPending
    /// Deleted for good on this device.
    case gone
    /// An item fetched before its project.
    case waiting
}

/// What a device changed in a record and has not pushed yet: what its next push sends.
public struct SpecChanges: OptionSet, Sendable, Equatable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The record itself is new: every field is unpushed.
    public static let created = SpecChanges(rawValue: 1 << 0)
    /// An item's quantity, its placement in its array, its deletion.
    public static let quantity = SpecChanges(rawValue: 1 << 1)
    public static let placement = SpecChanges(rawValue: 1 << 2)
    public static let deletion = SpecChanges(rawValue: 1 << 3)
    /// An item's entity row made by the phase-1 migration from the blob: saved only where the server has no such
    /// record (S2), not a change of the user's.
    public static let migrated = SpecChanges(rawValue: 1 << 4)

    /// A project's blob of array `collection` (phases 0–2).
    public static func blob(_ collection: SpecCollection) -> SpecChanges { SpecChanges(rawValue: 1 << (5 + UInt16(collection.rawValue))) }

    /// The user's changes: all but a migration's rows.
    public var edits: SpecChanges { subtracting(.migrated) }
}

/// One object on one device.
public struct SpecLocal: Sendable, Equatable {
    public var state: SpecState = .absent
    public var quantity = 0
    /// The item's current placement in an ordered array (0: none; see `SyncSpecModel+Order.swift`).
    public var placement = 0
    /// What the device changed and has not pushed.
    public var unpushed: SpecChanges = []
    /// The server change tag last fetched.
    public var known = 0
}

/// One record on the server.
public struct SpecServerRecord: Sendable, Equatable {
    public var exists = false
    public var deleted = false
    public var tag = 0
    public var quantity = 0
    public var placement = 0
    /// Project records in phase 0: each array as pushed, in order (item index, quantity).
    public var blobs: [[SpecItemRead]] = []
}

/// The executable specification of the glass-project sync: pure values, no I/O.
///
/// It keeps one list per array per device (no second representation: rule S1 predicts that
/// both of the system's representations read like it), records on a server with change tags,
/// and the phase. Phase 0 specifies the blob design (the whole array is one field: S8 predicts
/// the lost update); phases 1–3 specify the entity design (S4–S7).
public struct SyncSpecModel: Sendable {
    public let granularity: SpecGranularity
    public internal(set) var phase = 0
    public internal(set) var objects: [SpecObject] = []
    /// `locals[device][object]`.
    public internal(set) var locals: [[SpecLocal]]
    public internal(set) var server: [SpecServerRecord] = []
    var nextTag = 1
    /// Next serial by origin (0 the server's seed data, device d is origin d + 1).
    var nextSerial: [UInt32]
    /// The items created in each array, by index in creation order: `members[project * arraysPerProject +
    /// collection.rawValue]`. An item never changes project or array, so reading an array scans its own items
    /// instead of every object.
    var members: [[Int]] = []
    /// Provenance of the last push or fetch of each device, `presence[device][object]`: the rule that decided whether
    /// the item is in its array: the push or fetch itself (S4; phase 0's blob, S8), unless a rule of its path changed
    /// it (a refused save or a deletion over local edits S5, an item waiting for its project S7).
    var presence: [[String]]
    static let arraysPerProject = SpecCollection.allCases.count
    /// The order rules' decided pairs of placements (see `SyncSpecModel+Order.swift`).
    var placedBefore: Set<PlacementPair> = []
    var nextPlacement = 1
    /// The placement a phase-1 migration gives an item at a slot, alike on every device: `item << 32 | slot`.
    var migrationPlacements: [UInt64: Int] = [:]
    /// The projects' indexes, ascending.
    public private(set) var projectIndexes: [Int] = []

    public init(deviceCount: Int = 2, granularity: SpecGranularity, initialProjects: [SpecProjectKind] = SpecProjectKind.allCases) {
        self.granularity = granularity
        locals = Array(repeating: [], count: deviceCount)
        presence = Array(repeating: [], count: deviceCount)
        nextSerial = Array(repeating: 1, count: deviceCount + 1)
        for kind in initialProjects {
            let index = append(SpecObject(isProject: true, kind: kind, owner: -1, collection: .glassItems, code: 0,
                                          sortKey: takeID(origin: 0)))
            server[index] = SpecServerRecord(exists: true, tag: nextTag, blobs: kind.collections.map { _ in [] })
            for d in locals.indices {
                locals[d][index].state = .present
                locals[d][index].known = nextTag
            }
            nextTag += 1
        }
    }

    public var deviceCount: Int { locals.count }
    public var usesEntities: Bool { phase >= 1 }
    public var writesBlobs: Bool { phase <= 2 }
    public var readsEntities: Bool { phase >= 2 }
    /// Phases 1 and 2, where both representations are written.
    public var isDualWrite: Bool { phase == 1 || phase == 2 }

    mutating func takeID(origin: Int) -> UInt64 {
        defer { nextSerial[origin] += 1 }
        return UInt64(origin) << 32 | UInt64(nextSerial[origin])
    }

    mutating func append(_ object: SpecObject) -> Int {
        objects.append(object)
        server.append(SpecServerRecord())
        for d in locals.indices {
            locals[d].append(SpecLocal())
            presence[d].append(SyncRules.concurrentAdditionsSurvive)
        }
        for _ in 0..<Self.arraysPerProject { members.append([]) }
        if object.isProject { projectIndexes.append(objects.count - 1) }
        if !object.isProject { members[Int(object.owner) * Self.arraysPerProject + object.collection.rawValue].append(objects.count - 1) }
        return objects.count - 1
    }

    /// The items created in an array (any state), in creation order.
    func items(_ project: Int, _ collection: SpecCollection) -> [Int] {
        let slot = project * Self.arraysPerProject + collection.rawValue
        return project >= 0 && slot < members.count ? members[slot] : []
    }

    /// Item `i`'s state on a device becomes `state`, decided by `rule` (provenance).
    mutating func setState(_ device: Int, _ i: Int, _ state: SpecState, by rule: String) {
        locals[device][i].state = state
        presence[device][i] = rule
    }

    /// A push or fetch of a device begins: it decides, by `rule`, whether each item is in its array.
    mutating func decideItems(_ device: Int, by rule: String) {
        for i in presence[device].indices { presence[device][i] = rule }
    }

    // MARK: Queries

    public func isPresent(_ object: Int, on device: Int) -> Bool {
        object >= 0 && object < objects.count && locals[device][object].state == .present
    }

    /// Present items of one array on a device, in read order (one order the rules allow, see `read`).
    public func order(_ device: Int, _ project: Int, _ collection: SpecCollection) -> [Int] {
        arrange(device, project, collection).order
    }

    /// One array as the app should read it. Where the rules leave the order of some items open, the read
    /// carries the pairs they decide (`precedences`) and any order that keeps them is allowed.
    public func read(_ device: Int, _ project: Int, _ collection: SpecCollection) -> SpecCollectionRead {
        let (order, decided) = arrange(device, project, collection)
        var read = SpecCollectionRead(device: Int8(device), project: Int32(project), collection: collection,
                                      items: order.map { SpecItemRead(item: Int32($0), quantity: Int32(locals[device][$0].quantity), code: Int32(objects[$0].code)) })
        if !decided { read.precedences = decidedPairs(device, order) }
        return read
    }

    /// Every array of every project present on a device, projects by index.
    public func readAll(_ device: Int) -> [SpecCollectionRead] {
        var result: [SpecCollectionRead] = []
        for p in projectIndexes where locals[device][p].state == .present {
            for collection in objects[p].kind.collections { result.append(read(device, p, collection)) }
        }
        return result
    }

    /// Whether record `i` has a change the device has not fetched (it is in `pending(device)`).
    public func isPending(_ i: Int, on device: Int) -> Bool {
        i >= 0 && i < server.count && server[i].exists && server[i].tag > locals[device][i].known
    }

    /// Records with changes the device has not fetched, in the server's change order.
    public func pending(_ device: Int) -> [Int] {
        let server = self.server, row = locals[device]
        var keyed: [(tag: Int, index: Int)] = []
        for i in server.indices where server[i].exists && server[i].tag > row[i].known { keyed.append((server[i].tag, i)) }
        keyed.sort { $0.tag < $1.tag }
        return keyed.map(\.index)
    }

    /// Projects present on a device, by index.
    public func projects(on device: Int) -> [Int] {
        var result: [Int] = []
        for p in projectIndexes where locals[device][p].state == .present { result.append(p) }
        return result
    }

    /// How many projects exist (on any device or the server).
    public var projectCount: Int { projectIndexes.count }
}

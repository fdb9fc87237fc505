extension SyncSpecModel {
    /// A new project on a device; returns its index.
    public mutating func createProject(_ device: Int, kind: SpecProjectKind) -> Int {
        let index = append(SpecObject(isProject: true, kind: kind, owner: -1, collection: .glassItems, code: 0,
                                      sortKey: takeID(origin: device + 1)))
        var dirty: UInt8 = 1
        if writesBlobs { for slot in kind.collections.indices { dirty |= 2 << UInt8(slot) } }
        locals[device][index] = SpecLocal(state: .present, dirty: dirty)
        return index
    }

    /// A new item at the end of an array (S9: after every item the device holds there); returns its index.
    public mutating func addItem(_ device: Int, project: Int, _ collection: SpecCollection, code: Int) -> Int {
        let index = append(SpecObject(isProject: false, kind: objects[project].kind, owner: Int32(project),
                                      collection: collection, code: code, sortKey: takeID(origin: device + 1)))
        locals[device][index] = SpecLocal(state: .present, quantity: collection.initialQuantity,
                                          dirty: usesEntities ? 7 : 0)
        if collection.isOrdered { place(device, index, at: nil) }
        markBlob(device, index)
        return index
    }

    public mutating func removeItem(_ device: Int, item: Int) {
        if usesEntities {
            locals[device][item].state = .deletedPending
            locals[device][item].dirty |= 8
        } else {
            locals[device][item].state = .absent
        }
        markBlob(device, item)
    }

    /// Moves an item of an ordered array to `index` among the others (S9): a new placement of that item alone
    /// (its record is the only one the move changes, S4).
    public mutating func moveItem(_ device: Int, item: Int, to index: Int) {
        place(device, item, at: index)
        if usesEntities { locals[device][item].dirty |= 4 }
        markBlob(device, item)
    }

    public mutating func setQuantity(_ device: Int, item: Int, _ quantity: Int) {
        locals[device][item].quantity = quantity
        if usesEntities { locals[device][item].dirty |= 2 }
        markBlob(device, item)
    }

    /// The item's array changed: its blob is written (phases 0–2).
    private mutating func markBlob(_ device: Int, _ item: Int) {
        guard writesBlobs else { return }
        let object = objects[item]
        let slot = object.kind.slot(of: object.collection)!
        locals[device][Int(object.owner)].dirty |= 2 << UInt8(slot)
    }

    /// The number of items in the array `item` belongs to, on a device.
    public func arrayCount(_ device: Int, of item: Int) -> Int {
        order(device, Int(objects[item].owner), objects[item].collection).count
    }
}

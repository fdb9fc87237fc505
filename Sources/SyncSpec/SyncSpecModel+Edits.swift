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

    /// A new item at the end of an array; returns its index.
    public mutating func addItem(_ device: Int, project: Int, _ collection: SpecCollection, code: Int) -> Int {
        let last = order(device, project, collection).last
        let position = collection.isOrdered ? last.map { locals[device][$0].position + SpecPositions.step } ?? 0 : 0
        let index = append(SpecObject(isProject: false, kind: objects[project].kind, owner: Int32(project),
                                      collection: collection, code: code, sortKey: takeID(origin: device + 1)))
        locals[device][index] = SpecLocal(state: .present, quantity: collection.initialQuantity, position: position,
                                          dirty: usesEntities ? 7 : 0)
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

    /// Moves an item of an ordered array to `index` among the others.
    public mutating func moveItem(_ device: Int, item: Int, to index: Int) {
        let object = objects[item]
        let others = order(device, Int(object.owner), object.collection).filter { $0 != item }
        let row = locals[device]
        var position: Double?
        if others.isEmpty {
            position = 0
        } else if index == 0 {
            position = row[others[0]].position - SpecPositions.step
        } else if index >= others.count {
            position = row[others[others.count - 1]].position + SpecPositions.step
        } else {
            let before = row[others[index - 1]].position, after = row[others[index]].position
            let middle = (before + after) / 2
            if before < middle && middle < after { position = middle }
        }
        if let position {
            locals[device][item].position = position
            if usesEntities { locals[device][item].dirty |= 4 }
        } else {
            // No room between equal neighbours: the whole array is renumbered 0, 1024, … in the new order.
            var order = others
            order.insert(item, at: index)
            for (n, i) in order.enumerated() where locals[device][i].position != Double(n) * SpecPositions.step {
                locals[device][i].position = Double(n) * SpecPositions.step
                if usesEntities { locals[device][i].dirty |= 4 }
            }
        }
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

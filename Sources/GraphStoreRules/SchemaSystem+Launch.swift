import GraphFuzzEngine
import GraphSpec
import GraphStore

extension SchemaSystem {
    /// Closes the container and opens it again on the same store, with new contexts. A store that cannot be
    /// reopened is observed as a trap (`relaunchFailed`): the app could not start. (Unless the machine failed it,
    /// `StoreError.isMachineFailure`: a `HarnessFault`.)
    mutating func relaunch() throws(HarnessFault) -> GraphObservation? {
        do {
            let old = container
            container = try old.relaunch()
            retired.append(old)
        } catch {
            if error.isMachineFailure { throw HarnessFault("the machine failed the store file at a relaunch: \(error)") }
            return .trap("relaunchFailed")
        }
        contexts = [ModelContext(container), ModelContext(container)]
        return nil
    }

    /// The container's saved state: its rows as the specification names them; with `damaged`, on disk, the
    /// refusal of each damaged copy of the store file (G26).
    func savedState(reusedNumbers: [String]? = nil, damaged: Bool = false) throws(HarnessFault) -> SavedState {
        let refusals = damaged ? try container.path.map { path throws(HarnessFault) in try damagedCopyRefusals(of: path) } : nil
        return SavedState(rows: canonicalRows(), damagedCopies: refusals, reusedNumbers: reusedNumbers)
    }

    /// G26: each damage's refusal (see `openDamagedCopy`). Throws a `HarnessFault` when the harness cannot read
    /// the store file or write a copy: its own I/O failed, never reported as the store's.
    package func damagedCopyRefusals(of path: String) throws(HarnessFault) -> [String] {
        let data: [UInt8]
        do { data = try ScratchStoreFile.contents(of: path) } catch {
            throw HarnessFault("cannot read the store file \(path) to make damaged copies of it (G26)", underlying: error)
        }
        var refusals: [String] = []
        for damage in StoreDamage.allCases { refusals.append(try openDamagedCopy(data, damage)) }
        return refusals
    }

    /// G26: a container opened on a copy of the store file (`bytes`) damaged by `damage`, as an app relaunched on
    /// a damaged file would open it. Observes the refusal (`StoreRefusal`, named for the store's `StoreError.Kind`)
    /// with the path if the error names another file, or "opened"; a `HarnessFault` when the copy could not be
    /// written. The copy is removed; the case's own container and file are untouched.
    func openDamagedCopy(_ bytes: [UInt8], _ damage: StoreDamage) throws(HarnessFault) -> String {
        let copy = stores.file(prefix: "graphfuzz-damaged")
        defer { copy.remove() }
        // The damaged bytes: none, the first 50, or all with the first 16 written as zeros (not copied first).
        let damaged: [UInt8]
        var zeroed = 0
        switch damage {
        case .emptied: damaged = []
        case .cutInHeader: damaged = Array(bytes.prefix(50))
        case .overwrittenHeader:
            damaged = bytes
            zeroed = 16
        }
        do { try ScratchStoreFile.write(damaged, to: copy.path, zeroed: zeroed) } catch {
            throw HarnessFault("cannot write the \(damage.rawValue) copy of the store file to \(copy.path) (G26)", underlying: error)
        }
        do {
            let opened = try ModelContainer(schema: container.schema, configuration: container.configuration, path: copy.path, image: storeImage)
            opened.close()
            return "opened"
        } catch {
            if error.isMachineFailure { throw HarnessFault("the machine failed the \(damage.rawValue) copy of the store file (G26): \(error)") }
            let refusal = Self.refusal(error.kind)
            return error.path == copy.path ? refusal : "\(refusal) naming \(error.path)"
        }
    }

    /// The specification's name of a store file refusal (`StoreRefusal`); another kind keeps the store's name.
    static func refusal(_ kind: StoreError.Kind) -> String {
        switch kind {
        case .emptyFile: return StoreRefusal.emptyFile.rawValue
        case .truncated: return StoreRefusal.truncated.rawValue
        case .notADatabase: return StoreRefusal.notADatabase.rawValue
        default: return kind.rawValue
        }
    }

    /// Traps recorded by every launch's container (the current one last).
    package var trapCount: Int { retired.isEmpty ? container.traps.count : retired.reduce(container.traps.count) { $0 + $1.traps.count } }

    /// The `index`-th trap in launch order.
    func trap(at index: Int) -> StoreTrap {
        var index = index
        for old in retired {
            if index < old.traps.count { return old.traps[index] }
            index -= old.traps.count
        }
        return container.traps[index]
    }

    /// Releases the case: breaks the models' reference cycles, closes the store and removes its file.
    package mutating func tearDown() {
        container.tearDown()
        // Models never inserted may link to each other; the container does not know them.
        for model in refs { model?.breakReferenceCycles() }
        container.close()
        storeFile?.remove()
    }
}

import GraphStore

/// The strategies of the library's domain operations. Production uses the defaults; each other value is a
/// faulty variant from seed 004's history, selectable as a mutant by this package's targets only (`package` access).
public struct LibraryPolicy: Sendable, Equatable {
    /// How the entry factories build an entry.
    package enum EntryCreation: String, Sendable, CaseIterable {
        /// Insert the entry, then relate it (seed 004's fix).
        case insertThenRelate
        /// Relate it in the initializer, then insert (seed 004 before its fix: the temporary-identifier crash class).
        case relateBeforeInsert
    }
    /// Which entry `Work.userEntry` returns.
    package enum UserEntrySelection: String, Sendable, CaseIterable {
        /// An owned entry, else a wishlist entry (seed 004, Phase 3).
        case ownedFirst
        /// The first entry (seed 004 before Phase 3).
        case first
    }
    /// Whether `Library.save()` validates pending entries.
    package enum SaveValidation: String, Sendable, CaseIterable {
        case validateEntries
        case skip
    }

    public var configuration: BooksConfiguration
    package var entryCreation: EntryCreation
    package var userEntrySelection: UserEntrySelection
    package var saveValidation: SaveValidation

    public init(configuration: BooksConfiguration = .local) {
        self.init(configuration: configuration, entryCreation: .insertThenRelate)
    }

    /// With strategy points: for this package's targets and tests only.
    package init(configuration: BooksConfiguration = .local, entryCreation: EntryCreation = .insertThenRelate,
                userEntrySelection: UserEntrySelection = .ownedFirst, saveValidation: SaveValidation = .validateEntries) {
        self.configuration = configuration
        self.entryCreation = entryCreation
        self.userEntrySelection = userEntrySelection
        self.saveValidation = saveValidation
    }
}

/// A refusal of `Library.save()` before the store saves.
public enum LibraryIssue: String, Sendable, CaseIterable, Comparable {
    /// `validate()`: a wishlist entry has an edition.
    case wishlistCannotHaveEdition
    /// `validate()`: an entry has no work.
    case missingWorkRelationship
    /// CloudKit configuration: a deleted edition is still held by an entry that stays.
    case editionInUse

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why `Library.save()` failed.
public enum LibrarySaveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Refused before the store saved: the distinct issues, sorted.
    case refused([LibraryIssue])
    /// The store's save failed.
    case store(SaveError)

    public var description: String {
        switch self {
        case .refused(let issues): return "refused: " + issues.map(\.rawValue).joined(separator: ", ")
        case .store(let error): return error.description
        }
    }
}

/// The library's domain operations over a context.
public struct Library {
    public let context: ModelContext
    public let policy: LibraryPolicy

    public init(context: ModelContext, policy: LibraryPolicy = LibraryPolicy()) {
        self.context = context
        self.policy = policy
    }

    /// A wishlist entry for `work`.
    public func createWishlistEntry(for work: Work) -> UserLibraryEntry {
        let entry = UserLibraryEntry(readingStatus: .wishlist)
        switch policy.entryCreation {
        case .insertThenRelate:
            context.insert(entry)
            entry.work = work
        case .relateBeforeInsert:
            entry.work = work
            context.insert(entry)
        }
        return entry
    }

    /// An owned entry for `work` with `edition`.
    public func createOwnedEntry(for work: Work, edition: Edition, status: ReadingStatus = .toRead) -> UserLibraryEntry {
        let entry = UserLibraryEntry(readingStatus: status)
        switch policy.entryCreation {
        case .insertThenRelate:
            context.insert(entry)
            entry.work = work
            entry.edition = edition
        case .relateBeforeInsert:
            entry.work = work
            entry.edition = edition
            context.insert(entry)
        }
        return entry
    }

    /// The reader acquires `edition`: the entry holds it, and a wishlist entry becomes to-read.
    public func acquire(_ entry: UserLibraryEntry, edition: Edition) {
        entry.edition = edition
        if entry.readingStatus == .wishlist { entry.readingStatus = .toRead }
    }

    /// The reader's entry for `work` under the policy's selection.
    public func userEntry(of work: Work) -> UserLibraryEntry? { work.userEntry(selection: policy.userEntrySelection) }

    /// Validates pending entries, enforces "an owned entry keeps its edition" in the CloudKit configuration,
    /// then saves the context.
    public func save() throws(LibrarySaveError) {
        var issues: Set<LibraryIssue> = []
        if policy.saveValidation == .validateEntries {
            for model in context.insertedModelsArray + context.changedModelsArray {
                guard let entry = model as? UserLibraryEntry, !entry.isDeleted else { continue }
                do throws(EntryValidationError) { try entry.validate() } catch {
                    issues.insert(error == .wishlistCannotHaveEdition ? .wishlistCannotHaveEdition : .missingWorkRelationship)
                }
            }
        }
        if policy.configuration == .cloudKit {
            let removed = context.pendingDeletionClosure()
            let gone = Set(removed.map(ObjectIdentifier.init))
            for case let edition as Edition in removed
            where edition.userLibraryEntries.contains(where: { !gone.contains(ObjectIdentifier($0)) }) {
                issues.insert(.editionInUse)
            }
        }
        if !issues.isEmpty { throw .refused(issues.sorted()) }
        do throws(SaveError) { try context.save() } catch { throw .store(error) }
    }
}

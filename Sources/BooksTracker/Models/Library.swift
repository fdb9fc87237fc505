package import FaultPoints
import GraphStore

/// The configuration of the library's domain operations, and their faults: faulty variants from seed 004's
/// history, selectable as mutants by this package's targets only (`package` access; production has none).
public struct LibraryPolicy: Sendable, Equatable {
    public var configuration: BooksConfiguration
    /// The library's faults (production: `.shipped`), each a `Fault<LibraryPolicy>` declared beside its branch.
    package var faults: Faults<LibraryPolicy>

    public init(configuration: BooksConfiguration = .local) {
        self.init(configuration: configuration, faults: .shipped)
    }

    /// With faults: for this package's targets and tests only.
    package init(configuration: BooksConfiguration = .local, faults: Faults<LibraryPolicy>) {
        self.configuration = configuration
        self.faults = faults
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
        if policy.faults.selects(.relateBeforeInsert) {
            entry.work = work
            context.insert(entry)
        } else {
            context.insert(entry)
            entry.work = work
        }
        return entry
    }

    /// An owned entry for `work` with `edition`.
    public func createOwnedEntry(for work: Work, edition: Edition, status: ReadingStatus = .toRead) -> UserLibraryEntry {
        let entry = UserLibraryEntry(readingStatus: status)
        if policy.faults.selects(.relateBeforeInsert) {
            entry.work = work
            entry.edition = edition
            context.insert(entry)
        } else {
            context.insert(entry)
            entry.work = work
            entry.edition = edition
        }
        return entry
    }

    /// The reader acquires `edition`: the entry holds it, and a wishlist entry becomes to-read.
    public func acquire(_ entry: UserLibraryEntry, edition: Edition) {
        entry.edition = edition
        if entry.readingStatus == .wishlist { entry.readingStatus = .toRead }
    }

    /// The reader's entry for `work` under the policy's selection.
    public func userEntry(of work: Work) -> UserLibraryEntry? { work.userEntry(faults: policy.faults) }

    /// Validates pending entries, enforces "an owned entry keeps its edition" in the CloudKit configuration,
    /// then saves the context.
    public func save() throws(LibrarySaveError) {
        var issues: Set<LibraryIssue> = []
        if !policy.faults.selects(.skipValidation) {
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

extension Fault<LibraryPolicy> {
    /// Mutant `relate-before-insert`: seed 004 before its fix, the entry factories relate the entry before
    /// inserting it (the temporary-identifier crash class, B1).
    package static var relateBeforeInsert: Self { Self() }
    /// Mutant `skip-validate`: `save()` does not validate pending entries (B5).
    package static var skipValidation: Self { Self() }
}

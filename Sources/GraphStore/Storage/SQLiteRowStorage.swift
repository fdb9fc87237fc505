#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite backend: a store file in WAL mode with `synchronous=FULL` (a committed save survives a killed
/// process and a power loss), a save as one transaction (`BEGIN IMMEDIATE … COMMIT`). Reads go to the file.
final class SQLiteRowStorage: RowStorage {
    let schema: Schema
    let layout: SQLiteLayout
    let connection: SQLiteConnection
    let storeIdentifier: String
    let launch: Int
    private(set) var counters: [Int]
    private let entityIndex: [String: Int]

    var location: String { connection.path }
    var isOpen: Bool { connection.isOpen }

    /// Opens the store at `path`, creating it (atomically: built beside, then renamed into place) when
    /// no file is there. An existing file must be a GraphStore file of the same layout, and sound.
    /// `layout` is the schema's, when the caller has it (a relaunch reopens with its store's).
    init(path: String, schema: Schema, storeIdentifier: String, layout known: SQLiteLayout? = nil) throws(StoreError) {
        let layout: SQLiteLayout
        if let known {
            layout = known
        } else {
            do {
                layout = try SQLiteLayout(schema: schema)
            } catch {
                throw StoreError(error.kind, path: path, message: error.message)
            }
        }
        if !FileManager.default.fileExists(atPath: path) {
            try Self.create(path: path, layout: layout, storeIdentifier: storeIdentifier)
        }
        try Self.checkHeader(path: path)
        let connection = try SQLiteConnection(path: path, create: false)
        self.schema = schema
        self.layout = layout
        self.connection = connection
        var index: [String: Int] = [:]
        for (e, entity) in schema.entities.enumerated() { index[entity.name] = e }
        self.entityIndex = index
        do {
            connection.setBusyTimeout(milliseconds: 2000)
            try Self.checkIntegrity(connection)
            try Self.configure(connection)
            let metadata = try Self.readMetadata(connection, layout: layout)
            self.storeIdentifier = metadata.identifier
            self.launch = metadata.launch + 1
            try connection.execute("UPDATE Z_METADATA SET Z_LAUNCH = \(launch)")
            var counters = Array(repeating: 0, count: schema.entities.count)
            let select = try connection.statement("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY")
            while try select.step() {
                let e = select.int(0)
                if e >= 0, e < counters.count { counters[e] = select.int(1) }
            }
            self.counters = counters
        } catch {
            connection.close()
            throw error
        }
    }

    deinit { connection.close() }

    // MARK: Opening

    static func create(path: String, layout: SQLiteLayout, storeIdentifier: String) throws(StoreError) {
        let building = path + ".creating"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: building + suffix) }
        let connection = try SQLiteConnection(path: building, create: true)
        try configure(connection)
        try connection.execute("BEGIN IMMEDIATE")
        for sql in layout.creationSQL(storeIdentifier: storeIdentifier) { try connection.execute(sql) }
        try connection.execute("COMMIT")
        connection.close()  // checkpoints the WAL into the file and removes it
        guard rename(building, path) == 0 else {
            throw StoreError(.sqlite, path: path, message: "cannot move the new store into place (errno \(errno))")
        }
    }

    /// WAL journal with full synchronous commits: SQLite's own durability settings.
    private static func configure(_ connection: SQLiteConnection) throws(StoreError) {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL")
    }

    /// Refuses an empty file, one shorter than an SQLite header or than the pages its header promises, and one
    /// that is not an SQLite database — before SQLite sees it (SQLite takes an empty file for an empty database).
    private static func checkHeader(path: String) throws(StoreError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw StoreError(.sqlite, path: path, message: "cannot open the file for reading")
        }
        #if canImport(Glibc)
        defer { _ = Glibc.close(descriptor) }
        #else
        defer { _ = Darwin.close(descriptor) }
        #endif
        let size = max(0, Int(lseek(descriptor, 0, SEEK_END)))
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < 100 {
            let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, 100 - count, off_t(count)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        header.removeSubrange(count...)
        guard size > 0 else {
            throw StoreError(.emptyFile, path: path, message: "the file is empty (0 bytes); a store file that lost its contents is not opened as a new store")
        }
        guard header.count == 100 else {
            throw StoreError(.truncated, path: path, message: "the file has \(size) bytes, fewer than the 100 of an SQLite header")
        }
        guard header.prefix(16).elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw StoreError(.notADatabase, path: path, message: "the file does not start with the SQLite header")
        }
        func bigEndian(_ offset: Int, _ count: Int) -> Int { header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = bigEndian(16, 2) == 1 ? 65_536 : bigEndian(16, 2)
        let pages = bigEndian(28, 4)
        // The header's page count is valid when its change counter matches (SQLite ≥ 3.7.0). With a WAL still
        // holding frames, a checkpoint may have been cut short: recovery finishes it, so the size is not checked.
        var wal = stat()
        let walSize = lstat(path + "-wal", &wal) == 0 ? Int(wal.st_size) : 0
        if bigEndian(24, 4) == bigEndian(92, 4), pages > 0, walSize == 0, pages * pageSize > size {
            throw StoreError(.truncated, path: path,
                             message: "the header promises \(pages) pages of \(pageSize) bytes (\(pages * pageSize) bytes) but the file has \(size)")
        }
    }

    private static func checkIntegrity(_ connection: SQLiteConnection) throws(StoreError) {
        let check = try connection.statement("PRAGMA quick_check(5)")
        var problems: [String] = []
        while try check.step() {
            let line = check.text(0)
            if line != "ok" { problems.append(line) }
        }
        guard problems.isEmpty else {
            throw StoreError(.corrupt, path: connection.path, message: "integrity check failed: " + problems.joined(separator: "; "))
        }
    }

    /// The store's identifier and launch count, from `Z_METADATA`. The table list is read only when that table is
    /// missing (to name the tables there are); a statement that fails otherwise is the store's error.
    private static func readMetadata(_ connection: SQLiteConnection, layout: SQLiteLayout) throws(StoreError) -> (identifier: String, launch: Int) {
        let select: SQLiteStatement
        do {
            select = try connection.statement("SELECT Z_VERSION, Z_UUID, Z_LAUNCH, Z_LAYOUT FROM Z_METADATA")
        } catch {
            let tables = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
            var names: [String] = []
            while try tables.step() { names.append(tables.text(0)) }
            guard names.contains("Z_METADATA") else {
                throw StoreError(.notAGraphStore, path: connection.path,
                                 message: names.isEmpty ? "the database holds no table" : "no Z_METADATA table among \(names.sorted().joined(separator: ", "))")
            }
            throw error
        }
        guard try select.step() else { throw StoreError(.notAGraphStore, path: connection.path, message: "Z_METADATA holds no row") }
        guard select.int(0) == 1 else {
            throw StoreError(.schemaMismatch, path: connection.path, message: "store format version \(select.int(0)), expected 1")
        }
        let stored = select.text(3)
        guard stored == layout.signature else {
            let want = layout.signature.split(separator: "\n"), have = stored.split(separator: "\n")
            let first = zip(want, have).first { $0 != $1 }
            let detail = first.map { "the schema has \($0.0), the file \($0.1)" } ?? "the schema has \(want.count) entities, the file \(have.count)"
            throw StoreError(.schemaMismatch, path: connection.path, message: detail)
        }
        return (select.text(1), select.int(2))
    }

    // MARK: Reading

    /// The statements of entity `e`'s table.
    private func sql(_ e: Int) -> SQLiteLayout.TableSQL { layout.statements[e] }

    func row(_ id: PersistentIdentifier) throws(StoreError) -> Row? {
        guard !id.isTemporary, id.storeIdentifier == storeIdentifier, let e = entityIndex[id.entityName] else { return nil }
        let sql = sql(e)
        let select = try connection.statement(sql.selectRow)
        select.bind(1, id.number)
        guard try select.step() else { return nil }
        var row = try decodeRow(select, e)
        for (r, join) in sql.selectLinks.enumerated() {
            guard let join else { continue }
            let targets = try connection.statement(join)
            targets.bind(1, id.number)
            while try targets.step() {
                row.links[r].append(try target(entity: targets.int(0), number: targets.int(1), issuer: targets.isNull(2) ? nil : targets.text(2)))
            }
        }
        return row
    }

    /// The row in `select`'s current result (columns as `TableSQL.selectRow` names them), without its to-many links.
    private func decodeRow(_ select: SQLiteStatement, _ e: Int) throws(StoreError) -> Row {
        let entity = schema.entities[e]
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.attributes.count)
        for (a, attribute) in entity.attributes.enumerated() { values.append(try decode(select, Int32(a + 1), attribute.kind)) }
        var links: [[PersistentIdentifier]] = Array(repeating: [], count: entity.relationships.count)
        var column = Int32(entity.attributes.count + 1)
        for (r, toOne) in layout.tables[e].toOneColumns.enumerated() where toOne != nil {
            if !select.isNull(column) {
                links[r] = [try target(entity: select.int(column + 1), number: select.int(column),
                                       issuer: select.isNull(column + 2) ? nil : select.text(column + 2))]
            }
            column += 3
        }
        return Row(entity: e, values: values, links: links)
    }

    func rowIDs(_ entity: Int) throws(StoreError) -> [PersistentIdentifier] {
        let select = try connection.statement(sql(entity).selectIDs)
        var ids: [PersistentIdentifier] = []
        let name = schema.entities[entity].name
        while try select.step() {
            ids.append(PersistentIdentifier(entityName: name, kind: .permanent, storeIdentifier: storeIdentifier, number: select.int(0)))
        }
        return ids
    }

    /// Every row: one scan of each table and of each join table.
    func allRows() throws(StoreError) -> [PersistentIdentifier: Row] {
        var rows: [PersistentIdentifier: Row] = [:]
        for e in schema.entities.indices {
            let sql = sql(e)
            let name = schema.entities[e].name
            let select = try connection.statement(sql.selectAll)
            var table: [Int: Row] = [:]
            var numbers: [Int] = []
            while try select.step() {
                let number = select.int(0)
                table[number] = try decodeRow(select, e)
                numbers.append(number)
            }
            for (r, join) in sql.selectAllLinks.enumerated() where !numbers.isEmpty {
                guard let join else { continue }
                let targets = try connection.statement(join)
                while try targets.step() {
                    let source = targets.int(0)
                    guard table[source] != nil else { continue }
                    table[source]!.links[r].append(
                        try target(entity: targets.int(1), number: targets.int(2), issuer: targets.isNull(3) ? nil : targets.text(3)))
                }
            }
            for number in numbers {
                let id = PersistentIdentifier(entityName: name, kind: .permanent, storeIdentifier: storeIdentifier, number: number)
                rows[id] = table[number]
            }
        }
        return rows
    }

    private func decode(_ statement: SQLiteStatement, _ column: Int32, _ kind: AttributeKind) throws(StoreError) -> AttributeValue {
        if statement.isNull(column) { return .null }
        if statement.isText(column) { return .string(statement.text(column)) }
        if statement.isBlob(column) {
            guard let list = StringListCoding.decode(statement.blob(column)) else {
                // Column 0 is Z_PK: the message names the attribute's position, as the columns after it are counted.
                throw StoreError(.corrupt, path: location, message: "a list value in column \(column - 1) does not decode")
            }
            return .strings(list)
        }
        return kind == .bool ? .bool(statement.int(column) != 0) : .int(statement.int(column))
    }

    /// The identifier a stored reference names: `issuer` nil for this store's permanent rows, `t:…` for a
    /// temporary identifier, `p:…` for another store's permanent one.
    private func target(entity: Int, number: Int, issuer: String?) throws(StoreError) -> PersistentIdentifier {
        guard entity >= 0, entity < schema.entities.count else {
            throw StoreError(.corrupt, path: location, message: "a relationship names entity \(entity), which the schema does not have")
        }
        let name = schema.entities[entity].name
        guard let issuer else { return PersistentIdentifier(entityName: name, kind: .permanent, storeIdentifier: storeIdentifier, number: number) }
        let temporary = issuer.hasPrefix("t:")
        return PersistentIdentifier(entityName: name, kind: temporary ? .temporary : .permanent,
                                    storeIdentifier: String(issuer.dropFirst(2)), number: number)
    }

    private func bindTarget(_ statement: SQLiteStatement, _ first: Int32, _ id: PersistentIdentifier) {
        statement.bind(first, id.number)
        statement.bind(first + 1, entityIndex[id.entityName] ?? -1)
        if id.isTemporary {
            statement.bind(first + 2, "t:" + id.storeIdentifier)
        } else if id.storeIdentifier != storeIdentifier {
            statement.bind(first + 2, "p:" + id.storeIdentifier)
        } else {
            statement.bindNull(first + 2)
        }
    }

    // MARK: Writing

    func perform(_ operation: WriteOperation) throws(StoreError) {
        switch operation {
        case .begin:
            try connection.statement("BEGIN IMMEDIATE").run()
        case .commit:
            try connection.statement("COMMIT").run()
        case .deleteRow(let id, let e):
            let sql = sql(e)
            let delete = try connection.statement(sql.deleteRow)
            delete.bind(1, id.number)
            try delete.run()
            for case let join? in sql.deleteLinks {
                let links = try connection.statement(join)
                links.bind(1, id.number)
                try links.run()
            }
        case .putRow(let id, let e, let values):
            let put = try connection.statement(sql(e).putRow)
            put.bind(1, id.number)
            for (a, value) in values.enumerated() { bind(put, Int32(a + 2), value) }
            try put.run()
        case .putLinks(let id, let e, let r, let targets):
            let sql = sql(e)
            if let column = sql.updateToOne[r] {
                let update = try connection.statement(column)
                if let target = targets.first { bindTarget(update, 1, target) }
                update.bind(4, id.number)
                try update.run()
            } else if let clearSQL = sql.deleteLinks[r], let insertSQL = sql.insertLink[r] {
                let clear = try connection.statement(clearSQL)
                clear.bind(1, id.number)
                try clear.run()
                let insert = try connection.statement(insertSQL)
                for (position, target) in targets.enumerated() {
                    insert.reset()
                    insert.bind(1, id.number)
                    insert.bind(2, position)
                    bindTarget(insert, 3, target)
                    insert.bind(6, id.number)
                    try insert.run()
                }
            }
        case .setCounters(let values):
            let update = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            for (e, value) in values.enumerated() where value != counters[e] {
                update.reset()
                update.bind(1, value)
                update.bind(2, e)
                try update.run()
            }
            counters = values
        }
    }

    private func bind(_ statement: SQLiteStatement, _ index: Int32, _ value: AttributeValue) {
        switch value {
        case .null: statement.bindNull(index)
        case .bool(let flag): statement.bind(index, flag ? 1 : 0)
        case .int(let number): statement.bind(index, number)
        case .string(let text): statement.bind(index, text)
        case .strings(let list): statement.bind(index, blob: StringListCoding.encode(list))
        }
    }

    func abandon() { connection.abandon() }
    func close() { connection.close() }
}

/// A list of strings as a blob: each element's UTF-8 length (4 bytes, little-endian), then its bytes.
enum StringListCoding {
    static func encode(_ list: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for element in list {
            let utf8 = Array(element.utf8)
            let count = UInt32(utf8.count)
            bytes += [UInt8(count & 0xff), UInt8(count >> 8 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 24)]
            bytes += utf8
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> [String]? {
        var list: [String] = []
        var index = 0
        while index < bytes.count {
            guard index + 4 <= bytes.count else { return nil }
            let count = Int(bytes[index]) | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2]) << 16 | Int(bytes[index + 3]) << 24
            index += 4
            guard index + count <= bytes.count else { return nil }
            list.append(String(decoding: bytes[index..<index + count], as: UTF8.self))
            index += count
        }
        return list
    }
}

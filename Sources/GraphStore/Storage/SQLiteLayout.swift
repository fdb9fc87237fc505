/// The tables of a schema in an SQLite store, named as Core Data names them: a table `Z<ENTITY>` per entity
/// with an integer primary key `Z_PK` (the `N` of `x-coredata://STORE/Entity/pN`), a column `Z<ATTRIBUTE>` per
/// attribute, three columns `Z<RELATIONSHIP>`, `…ENT`, `…ISSUER` per to-one relationship, and a join table
/// `Z_<ENTITY>_<RELATIONSHIP>` per to-many relationship (source, position, destination), plus `Z_PRIMARYKEY`
/// (the last number issued per entity) and `Z_METADATA` (store identifier, launch count, layout).
///
/// Each side of a relationship is stored as the model holds it, so a store whose inverses disagree (a
/// mutant without inverse maintenance) reads back exactly as it was saved.
struct SQLiteLayout {
    struct Table {
        var name: String
        var attributeColumns: [String]
        /// Per relationship: the column of a to-one, nil for a to-many.
        var toOneColumns: [String?]
        /// Per relationship: the join table of a to-many, nil for a to-one.
        var joinTables: [String?]
    }

    let tables: [Table]
    /// Each table's statements (by entity index), built with the layout.
    let statements: [TableSQL]
    /// A line per entity naming its attributes (with kinds) and relationships: two schemas whose signatures
    /// match store their rows the same way.
    let signature: String

    init(schema: Schema) throws(StoreError) {
        var tables: [Table] = []
        var lines: [String] = []
        var tableNames: Set<String> = ["Z_METADATA", "Z_PRIMARYKEY"]
        tableNames.reserveCapacity(2 + schema.entities.reduce(0) { $0 + 1 + $1.relationships.count })
        for entity in schema.entities {
            let name = "Z" + Self.uppercased(entity.name)
            var columns: Set<String> = ["Z_PK"]
            columns.reserveCapacity(1 + 3 * (entity.attributes.count + entity.relationships.count))
            func column(_ base: String) throws(StoreError) -> String {
                let name = "Z" + Self.uppercased(base)
                for suffix in ["", "ENT", "ISSUER"] {
                    let candidate = suffix.isEmpty ? name : name + suffix
                    guard columns.insert(candidate).inserted else {
                        throw StoreError(.schemaMismatch, path: "", message: "\(entity.name).\(base): column \(candidate) is taken")
                    }
                }
                return name
            }
            var table = Table(name: name, attributeColumns: [], toOneColumns: [], joinTables: [])
            for attribute in entity.attributes { table.attributeColumns.append(try column(attribute.name)) }
            for relationship in entity.relationships {
                if relationship.isToMany {
                    let join = "Z_" + Self.uppercased(entity.name) + "_" + Self.uppercased(relationship.name)
                    guard tableNames.insert(join).inserted else {
                        throw StoreError(.schemaMismatch, path: "", message: "\(entity.name).\(relationship.name): table \(join) is taken")
                    }
                    table.toOneColumns.append(nil)
                    table.joinTables.append(join)
                } else {
                    table.toOneColumns.append(try column(relationship.name))
                    table.joinTables.append(nil)
                }
            }
            guard tableNames.insert(name).inserted else {
                throw StoreError(.schemaMismatch, path: "", message: "\(entity.name): table \(name) is taken")
            }
            tables.append(table)
            var line = entity.name + "("
            for (a, attribute) in entity.attributes.enumerated() {
                if a > 0 { line += "," }
                line += attribute.name + ":" + attribute.kind.rawValue
            }
            line += ")["
            for (r, relationship) in entity.relationships.enumerated() {
                if r > 0 { line += "," }
                line += relationship.name + (relationship.isToMany ? ":*" : ":") + relationship.destination
            }
            lines.append(line + "]")
        }
        self.tables = tables
        self.statements = tables.map(TableSQL.init)
        self.signature = lines.joined(separator: "\n")
    }

    /// The statements that read and write `table`'s rows, built once per opened store and entity.
    struct TableSQL {
        /// The row's columns (`Z_PK`, the attributes, three per to-one) of the row numbered `?1`.
        let selectRow: String
        /// The same columns of every row, in ascending number.
        let selectAll: String
        let selectIDs: String
        let deleteRow: String
        let putRow: String
        /// Per relationship: the to-one's update, nil for a to-many.
        let updateToOne: [String?]
        /// Per relationship: the to-many's statements, nil for a to-one.
        let selectLinks: [String?]
        let selectAllLinks: [String?]
        let deleteLinks: [String?]
        let insertLink: [String?]

        init(_ table: Table) {
            var columns = ["Z_PK"] + table.attributeColumns
            for case let column? in table.toOneColumns { columns += [column, column + "ENT", column + "ISSUER"] }
            let list = columns.joined(separator: ", ")
            selectRow = "SELECT \(list) FROM \(table.name) WHERE Z_PK = ?"
            selectAll = "SELECT \(list) FROM \(table.name) ORDER BY Z_PK"
            selectIDs = "SELECT Z_PK FROM \(table.name) ORDER BY Z_PK"
            deleteRow = "DELETE FROM \(table.name) WHERE Z_PK = ?"
            if table.attributeColumns.isEmpty {
                putRow = "INSERT OR IGNORE INTO \(table.name) (Z_PK) VALUES (?)"
            } else {
                let attributes = table.attributeColumns
                putRow = "INSERT INTO \(table.name) (Z_PK, \(attributes.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: attributes.count))) "
                    + "ON CONFLICT (Z_PK) DO UPDATE SET " + attributes.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            }
            updateToOne = table.toOneColumns.map { column in
                column.map { "UPDATE \(table.name) SET \($0) = ?, \($0)ENT = ?, \($0)ISSUER = ? WHERE Z_PK = ?" }
            }
            selectLinks = table.joinTables.map { join in join.map { "SELECT Z_DESTENT, Z_DEST, Z_DESTISSUER FROM \($0) WHERE Z_SRC = ? ORDER BY Z_ORDER" } }
            selectAllLinks = table.joinTables.map { join in
                join.map { "SELECT Z_SRC, Z_DESTENT, Z_DEST, Z_DESTISSUER FROM \($0) ORDER BY Z_SRC, Z_ORDER" }
            }
            deleteLinks = table.joinTables.map { join in join.map { "DELETE FROM \($0) WHERE Z_SRC = ?" } }
            insertLink = table.joinTables.map { join in
                join.map { "INSERT INTO \($0) (Z_SRC, Z_ORDER, Z_DEST, Z_DESTENT, Z_DESTISSUER) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM \(table.name) WHERE Z_PK = ?)" }
            }
        }
    }

    /// The statements that create an empty store.
    func creationSQL(storeIdentifier: String) -> [String] {
        var sql = [
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER NOT NULL, Z_UUID TEXT NOT NULL, Z_LAUNCH INTEGER NOT NULL, Z_LAYOUT TEXT NOT NULL)",
            "INSERT INTO Z_METADATA VALUES (1, \(quoted(storeIdentifier)), 0, \(quoted(signature)))",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT NOT NULL, Z_MAX INTEGER NOT NULL)",
        ]
        for (e, table) in tables.enumerated() {
            var columns = ["Z_PK INTEGER PRIMARY KEY"] + table.attributeColumns
            for case let column? in table.toOneColumns {
                columns += ["\(column) INTEGER", "\(column)ENT INTEGER", "\(column)ISSUER TEXT"]
            }
            sql.append("CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
            sql.append("INSERT INTO Z_PRIMARYKEY VALUES (\(e), \(quoted(table.name)), 0)")
            for case let join? in table.joinTables {
                sql.append("CREATE TABLE \(join) (Z_SRC INTEGER NOT NULL, Z_ORDER INTEGER NOT NULL, Z_DESTENT INTEGER NOT NULL, "
                           + "Z_DEST INTEGER NOT NULL, Z_DESTISSUER TEXT, PRIMARY KEY (Z_SRC, Z_ORDER)) WITHOUT ROWID")
            }
        }
        return sql
    }

    /// `text` as an SQL string literal: in single quotes, each quote doubled.
    private func quoted(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "'")) else { return "'" + text + "'" }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    /// `name.uppercased()`, without Unicode case mapping when the name is ASCII (a schema's names usually are).
    static func uppercased(_ name: String) -> String {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.uppercased() }
        return String(decoding: name.utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }, as: UTF8.self)
    }
}


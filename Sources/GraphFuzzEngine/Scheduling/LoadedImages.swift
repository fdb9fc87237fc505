#if os(Linux)
import Glibc

/// The ELF images (the program and its shared libraries) loaded in this process, read through the dynamic
/// linker: which image holds an address, the function symbols of an image's file, and the import slots
/// (GOT entries) through which one library calls another's functions.
///
/// The C declarations (`dladdr`, `dlinfo`, `struct link_map`, the `Elf64_*` records) are not in the Glibc
/// module, so they are looked up with `dlsym` and their layouts written out here, as the ELF and glibc ABIs
/// fix them (64-bit only).
enum LoadedImages {
    /// `Dl_info` of `<dlfcn.h>`.
    struct AddressInfo {
        var file: UnsafePointer<CChar>?
        var base: UnsafeMutableRawPointer?
        var symbol: UnsafePointer<CChar>?
        var symbolAddress: UnsafeMutableRawPointer?
    }

    /// The first fields of glibc's `struct link_map`.
    struct LinkMap {
        var base: UInt
        var name: UnsafePointer<CChar>?
        var dynamic: UnsafeRawPointer?
        var next: UnsafePointer<LinkMap>?
    }

    private typealias DladdrFunction = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32
    private typealias DlinfoFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer) -> Int32

    private static let dladdr: DladdrFunction? = function("dladdr")
    private static let dlinfo: DlinfoFunction? = function("dlinfo")

    static func function<F>(_ name: String) -> F? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: F.self)
    }

    /// Which file holds `address`, where it is loaded, and the dynamic symbol covering it, if one does.
    static func info(_ address: UInt) -> AddressInfo? {
        guard let dladdr, address != 0 else { return nil }
        var info = AddressInfo()
        guard withUnsafeMutableBytes(of: &info, { dladdr(UnsafeRawPointer(bitPattern: address), $0.baseAddress!) }) != 0 else { return nil }
        return info
    }

    /// The loaded image whose path ends with `suffix` (`/libswiftDispatch.so`): its load address and dynamic section.
    static func image(endingWith suffix: String) -> (base: UInt, dynamic: UnsafeRawPointer)? {
        guard let dlinfo, let program = dlopen(nil, RTLD_NOW) else { return nil }
        var first: UnsafeMutableRawPointer?
        guard dlinfo(program, 2 /* RTLD_DI_LINKMAP */, &first) == 0 else { return nil }
        var map = first.map { UnsafePointer<LinkMap>(OpaquePointer($0)) }
        while let entry = map {
            if let name = entry.pointee.name, String(cString: name).hasSuffix(suffix), let dynamic = entry.pointee.dynamic {
                return (entry.pointee.base, dynamic)
            }
            map = entry.pointee.next
        }
        return nil
    }

    // MARK: Import slots

    /// The import slots of the image loaded at `base` with dynamic section `dynamic`, by symbol name: the
    /// words the image's calls to another library's functions jump through (`R_*_JUMP_SLOT`) or load
    /// (`R_*_GLOB_DAT`).
    static func importSlots(base: UInt, dynamic: UnsafeRawPointer, named names: Set<String>) -> [String: [UnsafeMutablePointer<UInt>]] {
        var table: [Int64: UInt] = [:]
        var entry = dynamic
        while true {
            let tag = entry.load(as: Int64.self)
            if tag == 0 { break }
            table[tag] = entry.load(fromByteOffset: 8, as: UInt.self)
            entry += 16
        }
        // glibc stores these relocated in the loaded dynamic section; a loader that does not leaves them relative.
        func address(_ tag: Int64) -> UInt? { table[tag].map { $0 < base ? $0 + base : $0 } }
        guard let symbols = address(6 /* DT_SYMTAB */), let strings = address(5 /* DT_STRTAB */) else { return [:] }
        let kinds: Set<UInt64> = [6, 7, 1025, 1026]  // x86_64 GLOB_DAT, JUMP_SLOT; aarch64 GLOB_DAT, JUMP_SLOT
        var slots: [String: [UnsafeMutablePointer<UInt>]] = [:]
        for (start, size) in [(address(23 /* DT_JMPREL */), table[2 /* DT_PLTRELSZ */]), (address(7 /* DT_RELA */), table[8 /* DT_RELASZ */])] {
            guard let start, let size else { continue }
            for offset in stride(from: 0, to: Int(size), by: 24) {
                let relocation = UnsafeRawPointer(bitPattern: start + UInt(offset))!
                let info = relocation.load(fromByteOffset: 8, as: UInt64.self)
                guard kinds.contains(info & 0xffff_ffff) else { continue }
                let symbol = UnsafeRawPointer(bitPattern: symbols + UInt(info >> 32) * 24)!
                let name = String(cString: UnsafePointer<CChar>(OpaquePointer(UnsafeRawPointer(bitPattern: strings + UInt(symbol.load(as: UInt32.self)))!)))
                guard names.contains(name) else { continue }
                slots[name, default: []].append(UnsafeMutablePointer(bitPattern: base + relocation.load(as: UInt.self))!)
            }
        }
        return slots
    }

    /// Writes `value` into an import slot, making its page writable for the write when the loader left it
    /// read-only (full RELRO) and read-only again after. A page whose protection cannot be read stays writable.
    static func write(_ value: UInt, into slot: UnsafeMutablePointer<UInt>, mappings: [(low: UInt, high: UInt, writable: Bool)]?) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: slot) & ~(page - 1))
        let address = UInt(bitPattern: slot)
        let writable = mappings?.first { address >= $0.low && address < $0.high }?.writable
        if writable != true { mprotect(start, Int(page), PROT_READ | PROT_WRITE) }
        UnsafeMutableRawPointer(slot).storeBytes(of: value, as: UInt.self)
        if writable == false { mprotect(start, Int(page), PROT_READ) }
    }

    /// The process's mappings and whether each is writable (`/proc/self/maps`); nil when they cannot be read.
    static func mappings() -> [(low: UInt, high: UInt, writable: Bool)]? {
        let descriptor = open("/proc/self/maps", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return parseMappings(bytes)
    }

    /// The mappings listed in the text of `/proc/self/maps`: per line, `low-high perms …` (hexadecimal addresses), and
    /// whether `perms` grants writing. A line that does not start so is skipped. Read byte by byte: the file has a
    /// few hundred lines, which split into strings cost more than the rest of the hooks' installation.
    static func parseMappings(_ bytes: [UInt8]) -> [(low: UInt, high: UInt, writable: Bool)] {
        var result: [(low: UInt, high: UInt, writable: Bool)] = []
        var i = 0
        func hex(until end: UInt8) -> UInt? {
            var value: UInt = 0, digits = 0
            while i < bytes.count, bytes[i] != end {
                let byte = bytes[i]
                let digit: UInt
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                guard digits < UInt.bitWidth / 4 else { return nil }
                value = value << 4 | digit
                digits += 1
                i += 1
            }
            guard digits > 0, i < bytes.count else { return nil }
            i += 1  // the separator
            return value
        }
        while i < bytes.count {
            if let low = hex(until: UInt8(ascii: "-")), let high = hex(until: UInt8(ascii: " ")), i + 1 < bytes.count {
                result.append((low, high, bytes[i + 1] == UInt8(ascii: "w")))
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            i += 1
        }
        return result
    }

    // MARK: Function symbols of a file

    /// The function symbols of an ELF file, read once and kept mapped.
    struct SymbolTable: @unchecked Sendable {
        /// The link-time address of the file's first loadable segment: its load address minus this is the bias.
        let firstSegment: UInt
        /// Start, size and name offset of each `STT_FUNC` symbol, sorted by start.
        let symbols: [(start: UInt, size: UInt, name: Int)]
        /// The string table the name offsets point into.
        let strings: UnsafePointer<CChar>

        /// The symbol covering the link-time address `address`.
        func name(covering address: UInt) -> String? {
            var low = 0, high = symbols.count
            while low < high {
                let middle = (low + high) / 2
                if symbols[middle].start <= address { low = middle + 1 } else { high = middle }
            }
            guard low > 0, address < symbols[low - 1].start + max(symbols[low - 1].size, 1) else { return nil }
            return String(cString: strings + symbols[low - 1].name)
        }
    }

    /// The function symbols (`.symtab`, else `.dynsym`) of the ELF file at `path`; nil when the file cannot be
    /// read or is not 64-bit ELF. The file stays mapped (read-only, shared with the page cache) for the process's life.
    static func symbolTable(ofFile path: String) -> SymbolTable? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 64 else { return nil }
        let length = Int(status.st_size)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        let file = UnsafeRawPointer(mapped)
        guard file.load(as: UInt32.self) == 0x464c_457f, file.load(fromByteOffset: 4, as: UInt8.self) == 2 else {
            munmap(mapped, length)
            return nil
        }
        let programHeaders = Int(file.load(fromByteOffset: 32, as: UInt64.self))
        let programHeaderCount = Int(file.load(fromByteOffset: 56, as: UInt16.self))
        var firstSegment = UInt.max
        for index in 0..<programHeaderCount {
            let header = file + programHeaders + index * 56
            if header.load(as: UInt32.self) == 1 /* PT_LOAD */ { firstSegment = min(firstSegment, UInt(header.load(fromByteOffset: 16, as: UInt64.self))) }
        }
        let sectionHeaders = Int(file.load(fromByteOffset: 40, as: UInt64.self))
        let sectionCount = Int(file.load(fromByteOffset: 60, as: UInt16.self))
        func section(_ index: Int) -> (type: UInt32, offset: Int, size: Int, link: Int) {
            let header = file + sectionHeaders + index * 64
            return (header.load(fromByteOffset: 4, as: UInt32.self), Int(header.load(fromByteOffset: 24, as: UInt64.self)),
                    Int(header.load(fromByteOffset: 32, as: UInt64.self)), Int(header.load(fromByteOffset: 40, as: UInt32.self)))
        }
        guard sectionHeaders > 0, sectionHeaders + sectionCount * 64 <= length,
              let table = (0..<sectionCount).map(section).first(where: { $0.type == 2 /* SHT_SYMTAB */ })
                ?? (0..<sectionCount).map(section).first(where: { $0.type == 11 /* SHT_DYNSYM */ }),
              table.link < sectionCount, table.offset + table.size <= length else {
            munmap(mapped, length)
            return nil
        }
        let strings = section(table.link)
        var symbols: [(start: UInt, size: UInt, name: Int)] = []
        symbols.reserveCapacity(table.size / 24)
        for offset in stride(from: table.offset, to: table.offset + table.size, by: 24) {
            let symbol = file + offset
            let value = UInt(symbol.load(fromByteOffset: 8, as: UInt64.self))
            let name = Int(symbol.load(as: UInt32.self))
            guard symbol.load(fromByteOffset: 4, as: UInt8.self) & 0xf == 2 /* STT_FUNC */, value != 0, name < strings.size else { continue }
            symbols.append((value, UInt(symbol.load(fromByteOffset: 16, as: UInt64.self)), name))
        }
        symbols.sort { $0.start < $1.start }
        return SymbolTable(firstSegment: firstSegment == .max ? 0 : firstSegment, symbols: symbols,
                           strings: (file + strings.offset).assumingMemoryBound(to: CChar.self))
    }
}
#endif

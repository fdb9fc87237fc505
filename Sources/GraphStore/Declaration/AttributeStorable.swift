#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Swift type an `@Attribute` property can hold: how it is stored (`AttributeValue`) and read back.
///
/// `Bool`, `Int`, `String`, `[String]`, `Double`, `Date`, `UUID`, `URL` and optionals of them conform; an enum with a
/// raw value of one of them conforms by declaring it (`enum Status: String, AttributeStorable, CaseIterable`). A
/// `Double`, `Date`, `UUID` or `URL` is stored as its exact text, so it reads back equal.
public protocol AttributeStorable {
    /// How the store keeps values of this type.
    static var attributeKind: AttributeKind { get }
    /// Whether nil is a value (an optional type: the attribute is optional).
    static var isOptionalAttribute: Bool { get }
    /// The fixed value a read returns when a non-optional attribute holds none (never set), and the default the
    /// schema takes when a declaration's initial value differs from model to model (`= Date.now`, `= UUID()`).
    static var attributePlaceholder: Self? { get }
    /// The value as the store keeps it.
    var attributeValue: AttributeValue { get }
    /// The value of a stored one; nil when `attributeValue` holds something else.
    init?(attributeValue: AttributeValue)
}

extension AttributeStorable {
    public static var isOptionalAttribute: Bool { false }

    /// The value of `stored`, else the placeholder; a non-optional attribute with neither stops the process.
    @inlinable
    static func reading(_ stored: AttributeValue) -> Self {
        if let value = Self(attributeValue: stored) { return value }
        guard let placeholder = attributePlaceholder else {
            preconditionFailure("a \(Self.self) attribute holds \(stored), which is no \(Self.self), and \(Self.self) has no attributePlaceholder")
        }
        return placeholder
    }
}

extension Bool: AttributeStorable {
    public static var attributeKind: AttributeKind { .bool }
    public static var attributePlaceholder: Bool? { false }
    @inlinable public var attributeValue: AttributeValue { .bool(self) }
    @inlinable public init?(attributeValue: AttributeValue) {
        guard case .bool(let value) = attributeValue else { return nil }
        self = value
    }
}

extension Int: AttributeStorable {
    public static var attributeKind: AttributeKind { .int }
    public static var attributePlaceholder: Int? { 0 }
    @inlinable public var attributeValue: AttributeValue { .int(self) }
    @inlinable public init?(attributeValue: AttributeValue) {
        guard case .int(let value) = attributeValue else { return nil }
        self = value
    }
}

extension String: AttributeStorable {
    public static var attributeKind: AttributeKind { .string }
    public static var attributePlaceholder: String? { "" }
    @inlinable public var attributeValue: AttributeValue { .string(self) }
    @inlinable public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
}

extension Array: AttributeStorable where Element == String {
    public static var attributeKind: AttributeKind { .strings }
    public static var attributePlaceholder: [String]? { [] }
    @inlinable public var attributeValue: AttributeValue { .strings(self) }
    @inlinable public init?(attributeValue: AttributeValue) {
        guard case .strings(let value) = attributeValue else { return nil }
        self = value
    }
}

extension Optional: AttributeStorable where Wrapped: AttributeStorable {
    public static var attributeKind: AttributeKind { Wrapped.attributeKind }
    public static var isOptionalAttribute: Bool { true }
    public static var attributePlaceholder: Wrapped?? { .some(nil) }
    @inlinable public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
    @inlinable public init?(attributeValue: AttributeValue) {
        if attributeValue.isNull {
            self = nil
        } else if let value = Wrapped(attributeValue: attributeValue) {
            self = value
        } else {
            return nil
        }
    }
}

extension Double: AttributeStorable {
    public static var attributeKind: AttributeKind { .string }
    public static var attributePlaceholder: Double? { 0 }
    public var attributeValue: AttributeValue { .string(description) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let value = Double(text) else { return nil }
        self = value
    }
}

extension Date: AttributeStorable {
    public static var attributeKind: AttributeKind { .string }
    /// The reference date (2001-01-01 00:00 UTC).
    public static var attributePlaceholder: Date? { Date(timeIntervalSinceReferenceDate: 0) }
    /// The interval since the reference date, as its exact text.
    public var attributeValue: AttributeValue { .string(timeIntervalSinceReferenceDate.description) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let interval = Double(text) else { return nil }
        self.init(timeIntervalSinceReferenceDate: interval)
    }
}

extension UUID: AttributeStorable {
    public static var attributeKind: AttributeKind { .string }
    /// The UUID of zeros.
    public static var attributePlaceholder: UUID? { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public var attributeValue: AttributeValue { .string(uuidString) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let value = UUID(uuidString: text) else { return nil }
        self = value
    }
}

extension URL: AttributeStorable {
    public static var attributeKind: AttributeKind { .string }
    public static var attributePlaceholder: URL? { nil }
    public var attributeValue: AttributeValue { .string(absoluteString) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let text) = attributeValue, let value = URL(string: text) else { return nil }
        self = value
    }
}

extension AttributeStorable where Self: RawRepresentable, RawValue: AttributeStorable {
    public static var attributeKind: AttributeKind { RawValue.attributeKind }
    public static var attributePlaceholder: Self? { RawValue.attributePlaceholder.flatMap(Self.init(rawValue:)) }
    @inlinable public var attributeValue: AttributeValue { rawValue.attributeValue }
    @inlinable public init?(attributeValue: AttributeValue) {
        guard let raw = RawValue(attributeValue: attributeValue) else { return nil }
        self.init(rawValue: raw)
    }
}

extension AttributeStorable where Self: RawRepresentable & CaseIterable, RawValue: AttributeStorable {
    /// The first case.
    public static var attributePlaceholder: Self? { allCases.first }
}

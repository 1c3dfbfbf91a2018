/// The Device interface's methods, named once: the introspection data, the rules table
/// (``FprintdRules/rule(_:)``) and the dispatch (`FprintdFace.deviceCall`) all switch over
/// this list, so a method cannot be declared in one and missing from another.
enum FprintdMethod: String, CaseIterable, Sendable {
    case listEnrolledFingers = "ListEnrolledFingers"
    case deleteEnrolledFingers = "DeleteEnrolledFingers"
    case deleteEnrolledFingers2 = "DeleteEnrolledFingers2"
    case deleteEnrolledFinger = "DeleteEnrolledFinger"
    case claim = "Claim"
    case release = "Release"
    case verifyStart = "VerifyStart"
    case verifyStop = "VerifyStop"
    case enrollStart = "EnrollStart"
    case enrollStop = "EnrollStop"

    /// Its arguments as the introspection data declares them; GDBus refuses a call whose
    /// arguments do not match.
    var arguments: String {
        switch self {
        case .listEnrolledFingers:
            #"<arg name="username" type="s" direction="in"/><arg name="enrolled_fingers" type="as" direction="out"/>"#
        case .deleteEnrolledFingers, .claim: #"<arg name="username" type="s" direction="in"/>"#
        case .deleteEnrolledFinger, .verifyStart, .enrollStart: #"<arg name="finger_name" type="s" direction="in"/>"#
        case .deleteEnrolledFingers2, .release, .verifyStop, .enrollStop: ""
        }
    }
}

/// The Device interface's properties, named once: the introspection data, the values
/// (`FprintdDevice.property(_:)`) and the change signals use this list.
enum FprintdProperty: String, CaseIterable, Sendable {
    case name
    case numEnrollStages = "num-enroll-stages"
    case scanType = "scan-type"
    case fingerPresent = "finger-present"
    case fingerNeeded = "finger-needed"

    /// Its D-Bus type.
    var type: String {
        switch self {
        case .name, .scanType: "s"
        case .numEnrollStages: "i"
        case .fingerPresent, .fingerNeeded: "b"
        }
    }
}

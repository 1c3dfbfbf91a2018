import FPReaders

/// fprintd's D-Bus contract (1.94), as its clients use it: names, paths, the introspection data
/// GDBus checks calls against, and the error names. Written for fpbridge from the interface's
/// facts (method names and signatures); no text of fprintd's is reused.
enum FprintdInterface {
    static let busName = "net.reactivated.Fprint"
    static let rootPath = "/net/reactivated/Fprint"
    static let managerPath = "/net/reactivated/Fprint/Manager"
    static let devicePathPrefix = "/net/reactivated/Fprint/Device/"
    static let manager = "net.reactivated.Fprint.Manager"
    static let device = "net.reactivated.Fprint.Device"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"

    /// The interfaces served; GDBus refuses calls whose arguments do not match these signatures.
    /// The Device interface's methods and properties come from their one list each
    /// (``FprintdMethod``, ``FprintdProperty``).
    static let introspection = """
    <node>
      <interface name="net.reactivated.Fprint.Manager">
        <method name="GetDevices"><arg name="devices" type="ao" direction="out"/></method>
        <method name="GetDefaultDevice"><arg name="device" type="o" direction="out"/></method>
      </interface>
      <interface name="net.reactivated.Fprint.Device">
    \(FprintdMethod.allCases.map { "    <method name=\"\($0.rawValue)\">\($0.arguments)</method>" }.joined(separator: "\n"))
        <signal name="VerifyFingerSelected"><arg name="finger_name" type="s"/></signal>
        <signal name="VerifyStatus"><arg name="result" type="s"/><arg name="done" type="b"/></signal>
        <signal name="EnrollStatus"><arg name="result" type="s"/><arg name="done" type="b"/></signal>
    \(FprintdProperty.allCases.map { "    <property name=\"\($0.rawValue)\" type=\"\($0.type)\" access=\"read\"/>" }.joined(separator: "\n"))
      </interface>
      <interface name="org.freedesktop.DBus.ObjectManager">
        <method name="GetManagedObjects">
          <arg name="objects" type="a{oa{sa{sv}}}" direction="out"/>
        </method>
        <signal name="InterfacesAdded">
          <arg name="object" type="o"/><arg name="interfaces" type="a{sa{sv}}"/>
        </signal>
        <signal name="InterfacesRemoved">
          <arg name="object" type="o"/><arg name="interfaces" type="as"/>
        </signal>
      </interface>
    </node>
    """

    /// fprintd's error names, as clients match them.
    enum ErrorName: String, Sendable {
        case claimDevice = "net.reactivated.Fprint.Error.ClaimDevice"
        case alreadyInUse = "net.reactivated.Fprint.Error.AlreadyInUse"
        case internalError = "net.reactivated.Fprint.Error.Internal"
        case permissionDenied = "net.reactivated.Fprint.Error.PermissionDenied"
        case noEnrolledPrints = "net.reactivated.Fprint.Error.NoEnrolledPrints"
        case fingerAlreadyEnrolled = "net.reactivated.Fprint.Error.FingerAlreadyEnrolled"
        case noActionInProgress = "net.reactivated.Fprint.Error.NoActionInProgress"
        case invalidFingername = "net.reactivated.Fprint.Error.InvalidFingername"
        case noSuchDevice = "net.reactivated.Fprint.Error.NoSuchDevice"
        case printsNotDeleted = "net.reactivated.Fprint.Error.PrintsNotDeleted"
        case printsNotDeletedFromDevice = "net.reactivated.Fprint.Error.PrintsNotDeletedFromDevice"
    }
}

extension BusError {
    init(_ name: FprintdInterface.ErrorName, _ message: String) {
        self.init(name.rawValue, message)
    }
}

import FPCore
import FoundationEssentials
import Glibc

/// The USB devices present, read from sysfs: what is plugged in, whether or not
/// libfprint (or this user) can open it.
public enum USBBus {
    /// The USB devices sysfs lists under `sysfs`; empty when it cannot be read.
    public static func devices(sysfs: String = "/sys/bus/usb/devices") -> [USBDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        return names.sorted().compactMap { name in
            let directory = sysfs + "/" + name
            guard let vendor = read(directory + "/idVendor"), let product = read(directory + "/idProduct"),
                  let id = USBDeviceID(vendor + ":" + product),
                  let bus = read(directory + "/busnum").flatMap({ Int($0) }),
                  let number = read(directory + "/devnum").flatMap({ Int($0) }) else { return nil }
            let devnode = "/dev/bus/usb/\(String(bus).leftPadded(to: 3))/\(String(number).leftPadded(to: 3))"
            return USBDevice(id: id, devnode: devnode, product: read(directory + "/product"),
                             accessible: access(devnode, R_OK | W_OK) == 0)
        }
    }

    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmed
        return text.isEmpty ? nil : text
    }
}

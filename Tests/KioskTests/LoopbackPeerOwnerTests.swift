import FPKiosk
import Testing

/// The kernel's socket tables read as identd reads them: which uid holds the client's end.
/// The rows are a little-endian machine's (each 32-bit word of an address printed as a number).
@Suite(.enabled(if: 1.littleEndian == 1, "the rows are as a little-endian kernel prints them"))
struct LoopbackPeerOwnerTests {
    let kiosk = TCPEndpoint(address: [127, 0, 0, 1], port: 8080)!
    let browser = TCPEndpoint(address: [127, 0, 0, 1], port: 45678)!

    /// 127.0.0.1:8080 is 0100007F:1F90, port 45678 is B26E; uid 998 the kiosk, 65534 the browser.
    let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000   998        0 5001 1 0000000000000000 100 0 0 10 0
           1: 0100007F:1F90 0100007F:B26E 01 00000000:00000000 00:00000000 00000000   998        0 5002 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:B26E 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 5003 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:B270 0100007F:1F90 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
        """

    @Test func theClientsEndNamesItsOwnerNotTheKiosksEnd() {
        #expect(LoopbackPeerOwner.match(in: tcp, client: browser, server: kiosk) == .owner(65534))
        // Seen from the other side, the kiosk's accepted socket is the kiosk's.
        #expect(LoopbackPeerOwner.match(in: tcp, client: kiosk, server: browser) == .owner(998))
    }

    /// A closed socket still in the table (TIME_WAIT here) shows uid 0 and no inode: nobody, not root.
    @Test func aSocketNoProcessHoldsHasNoOwner() {
        let closed = TCPEndpoint(address: [127, 0, 0, 1], port: 0xB270)!
        #expect(LoopbackPeerOwner.match(in: tcp, client: closed, server: kiosk) == .none)
        #expect(LoopbackPeerOwner.match(in: tcp, client: TCPEndpoint(address: [127, 0, 0, 2], port: 45678)!, server: kiosk) == .none)
        #expect(LoopbackPeerOwner.match(in: "", client: browser, server: kiosk) == .none)
    }

    @Test func rowsNamingTwoOwnersAreNoAnswer() {
        let twice = tcp + "\n   4: 0100007F:B26E 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 5004 1 0"
        #expect(LoopbackPeerOwner.match(in: twice, client: browser, server: kiosk) == .ambiguous([65534, 1000]))
    }

    /// [::1]:8080 and [::1]:45678 in tcp6; and an IPv4 connection held by an AF_INET6 socket,
    /// whose addresses are IPv4-mapped (::ffff:127.0.0.1).
    @Test func ipv6AndIPv4MappedRows() {
        let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let kiosk6 = TCPEndpoint(address: loopback6, port: 8080)!, browser6 = TCPEndpoint(address: loopback6, port: 45678)!
        let tcp6 = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000000000000000000001000000:B26E 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 6001 1 0
               1: 0000000000000000FFFF00000100007F:B26E 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000  1001        0 6002 1 0
            """
        #expect(LoopbackPeerOwner.match(in: tcp6, client: browser6, server: kiosk6) == .owner(1000))
        #expect(LoopbackPeerOwner.match(in: tcp6, client: browser, server: kiosk) == .owner(1001))
        let mapped = TCPEndpoint(address: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1], port: 45678)
        #expect(mapped == browser && mapped?.description == "127.0.0.1:45678")
        #expect(browser6.description == "[::1]:45678" && TCPEndpoint(address: [1, 2, 3], port: 1) == nil)
    }
}

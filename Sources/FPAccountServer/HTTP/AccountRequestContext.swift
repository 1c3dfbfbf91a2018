import FPAccountAPI
import Hummingbird
import NIOCore

/// Hummingbird's context with the client's address kept, for rate limits and the audit log.
struct AccountRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let address: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress
    }

    var maxUploadSize: Int { AccountLimits.maximumBodyBytes }
}

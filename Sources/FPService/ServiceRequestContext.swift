import FPLocalAPI
import Hummingbird
import NIOCore

/// Hummingbird's request context with the connection kept: its peer credentials
/// authorise the request, and its closing cancels what the request started.
package struct ServiceRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    package let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    package var maxUploadSize: Int { LocalAPI.maximumBodyBytes }
}

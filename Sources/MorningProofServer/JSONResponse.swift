import Hummingbird
import MorningProofCore
import NIOCore

/// JSON bodies: sorted keys, so the same value always reads the same.
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        // Encoding the server's own response types cannot fail.
        let bytes = (try? SortedJSON.encode(value)) ?? Array("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

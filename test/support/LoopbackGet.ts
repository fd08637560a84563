/** For the front-door shape tests (test/support/RequestShapes.ts, IdleShapes.ts): one GET on a connection of its own. */
import { connect } from "node:net"

/** One GET on a loopback connection of its own, closed after the answer. */
export const getOnOwnConnection = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end("GET /x HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n"))
    socket.on("data", () => {})
    socket.once("close", () => resolve())
    socket.once("error", reject)
  })

package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a loopback port of its own to a real server, so a test can take that server away from one client (the
 * bridge) without stopping it for everyone else on the machine: {@link #cut()} closes the listening port and every relayed
 * connection (clients then get "connection refused", as from a broker that is down), {@link #restore()} listens again on
 * the same port. {@link #pause()} keeps every connection open but passes no byte either way until {@link #resume()}: a
 * replica whose replication link runs through it then lacks what its master wrote meanwhile, and acknowledges nothing
 * (unlike a stopped process, whose socket buffer still takes the bytes in). {@link #pauseAnswers()} holds only what the
 * server sends: a broker then receives every publish and confirms none, as one that stalls. Bytes pass through unchanged.
 */
public final class TcpRelay implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket listener;
    private volatile boolean paused;
    private volatile boolean answersPaused;

    public TcpRelay(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.port = FreePorts.next();
        restore();
    }

    /** The port clients connect to instead of the server's. */
    public int port() {
        return port;
    }

    /** Refuses new connections and drops the open ones, until {@link #restore()}. */
    public synchronized void cut() {
        closeQuietly(listener);
        listener = null;
        sockets.forEach(TcpRelay::closeQuietly);
        sockets.clear();
    }

    /** Holds every byte read from now on, in either direction, until {@link #resume()}; connections stay open. */
    public void pause() {
        paused = true;
    }

    /** Holds every byte the server sends from now on, until {@link #resume()}; what clients send passes. */
    public void pauseAnswers() {
        answersPaused = true;
    }

    /** Passes the held bytes on, and every byte after them. */
    public void resume() {
        paused = false;
        answersPaused = false;
    }

    /** Accepts and relays connections again, on the same port. */
    public synchronized void restore() {
        if (listener != null) {
            return;
        }
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            listener = server;
            Thread acceptor = new Thread(() -> accept(server), "tcp-relay-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + port, e);
        }
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException closed) {
                return; // cut() closed the listener
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                if (listener != server) {
                    // cut() ran while this connection was being set up
                    closeQuietly(client);
                    closeQuietly(upstream);
                    return;
                }
                pump(client, upstream, false);
                pump(upstream, client, true);
            } catch (IOException refused) {
                closeQuietly(client);
            }
        }
    }

    /** {@code answers}: the bytes go from the server to a client. */
    private void pump(Socket from, Socket to, boolean answers) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    while ((paused || answers && answersPaused) && !to.isClosed()) {
                        Thread.sleep(10);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException closed) {
                // one side went away: end both
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-relay-pump-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() {
        cut();
    }
}

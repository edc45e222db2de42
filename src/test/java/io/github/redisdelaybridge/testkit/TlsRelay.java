package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * A TLS listener of the test's own in front of a plain server (RabbitMQ on 5672): it terminates TLS with the server
 * certificate of {@link TestCertificates} and relays the bytes, so a client's TLS settings are tested against a real
 * handshake without changing the shared broker's configuration.
 */
public final class TlsRelay implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    public TlsRelay(TestCertificates certs, String targetHost, int targetPort) throws Exception {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certs.serverKeystore())) {
            keys.load(in, certs.password().toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, certs.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.listener = server;
        Thread acceptor = new Thread(this::accept, "tls-relay-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                // closed, or one connection failed: go on with the next
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tls-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() {
        closeQuietly(listener);
        sockets.forEach(TlsRelay::closeQuietly);
    }
}

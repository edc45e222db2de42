package io.github.redisdelaybridge.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A throw-away certificate authority for TLS tests, made with openssl and keytool: a server certificate for
 * 127.0.0.1 / localhost and a client certificate, both signed by the CA, as PEM files and as PKCS12 stores, and a
 * PKCS12 truststore holding the CA. Valid for two days; every store has the password {@link #password()}.
 */
public final class TestCertificates {

    private final Path directory;
    private final String password;

    private TestCertificates(Path directory, String password) {
        this.directory = directory;
        this.password = password;
    }

    public static TestCertificates generate(String name) {
        try {
            Path dir = Files.createTempDirectory("certs-" + name);
            TestCertificates certificates = new TestCertificates(dir, "st0re-" + Long.toString(System.nanoTime(), 36));
            certificates.make();
            return certificates;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void make() throws IOException {
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=redis-delay-bridge test CA");
        Files.writeString(directory.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        Files.writeString(directory.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        for (String party : List.of("server", "client")) {
            run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", party + ".key", "-out", party + ".csr",
                    "-subj", "/CN=" + (party.equals("server") ? "localhost" : "bridge"));
            run("openssl", "x509", "-req", "-in", party + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", party + ".pem", "-days", "2", "-extfile", party + ".ext");
            run("openssl", "pkcs12", "-export", "-in", party + ".pem", "-inkey", party + ".key", "-certfile", "ca.pem",
                    "-name", party, "-out", party + ".p12", "-passout", "pass:" + password);
        }
        run("keytool", "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "truststore.p12",
                "-storetype", "PKCS12", "-storepass", password);
    }

    private void run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String password() {
        return password;
    }

    public Path caPem() {
        return directory.resolve("ca.pem");
    }

    public Path truststore() {
        return directory.resolve("truststore.p12");
    }

    public Path serverPem() {
        return directory.resolve("server.pem");
    }

    public Path serverKey() {
        return directory.resolve("server.key");
    }

    public Path serverKeystore() {
        return directory.resolve("server.p12");
    }

    public Path clientPem() {
        return directory.resolve("client.pem");
    }

    public Path clientKey() {
        return directory.resolve("client.key");
    }

    public Path clientKeystore() {
        return directory.resolve("client.p12");
    }
}

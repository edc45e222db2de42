package io.github.redisdelaybridge.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A server process a fault test starts, kills, freezes and restarts: a redis-server, a Kafka broker or
 * a bridge in a JVM of its own (the benchmark starts a broker and a load generator this way too). Output
 * goes to a log file under target/fault-tests.
 */
public final class ChildProcess implements AutoCloseable {

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private Process process;

    public ChildProcess(String name, List<String> command, Map<String, String> environment) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = Path.of("target", "fault-tests", name + ".log");
    }

    /** A JVM running {@code mainClass} with this JVM's class path ({@link #classPath()}), in the project directory. */
    public static ChildProcess java(String name, String mainClass, List<String> jvmOptions, Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        // A build started in the background (nohup, a CI runner) passes SIGINT on as ignored, and a JVM that starts
        // with SIGINT ignored never sees Ctrl-C: reset it, as a terminal would have it (env execs java: same pid).
        command.add("env");
        command.add("--default-signal=INT");
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        return new ChildProcess(name, command, environment);
    }

    /**
     * The class path the test classes were loaded from: java.class.path under surefire; under {@code mvn exec:java}
     * (bin/benchmark) that holds only Maven's launcher, and the test classes come from the class loader exec:java made.
     */
    static String classPath() {
        if (ChildProcess.class.getClassLoader() instanceof java.net.URLClassLoader loader) {
            List<String> entries = new ArrayList<>();
            for (java.net.URL url : loader.getURLs()) {
                try {
                    entries.add(Path.of(url.toURI()).toString());
                } catch (java.net.URISyntaxException e) {
                    throw new IllegalStateException("a class path entry that is not a file: " + url, e);
                }
            }
            return String.join(File.pathSeparator, entries);
        }
        return System.getProperty("java.class.path");
    }

    public ChildProcess start() {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                    .directory(new File("."));
            builder.environment().putAll(environment);
            process = builder.start();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /** Waits until the log contains {@code text} (written by the child when it is ready). */
    public void awaitLog(String text, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            if (logText().contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail());
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(name + " did not log '" + text + "' within " + timeout + ":\n" + tail());
    }

    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private String tail() {
        String text = logText();
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    /** Writes one line to the process's standard input, for a child that takes commands there. */
    public void writeLine(String line) throws IOException {
        java.io.OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        in.flush();
    }

    /** SIGKILL: no shutdown hook, no graceful stop. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM, then wait for a graceful exit. */
    public void stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            kill();
        }
    }

    /** SIGSTOP: the process stays, but answers nothing, as if the network to it were cut. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT: resume after {@link #freeze()}. */
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** SIGINT, as Ctrl-C in a terminal sends. */
    public void interrupt() throws IOException, InterruptedException {
        signal("INT");
    }

    /** Waits for the process to end; its exit code, or null if it still runs after {@code timeout}. */
    public Integer awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    private void signal(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    /** The process id, for measuring its CPU time. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (isAlive()) {
            thawQuietly();
            kill();
        }
    }

    private void thawQuietly() {
        try {
            thaw();
        } catch (IOException | InterruptedException ignored) {
            // it is being killed anyway
        }
    }
}

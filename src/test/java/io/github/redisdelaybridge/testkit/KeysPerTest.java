package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.store.connection.RedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests of the store against the local Redis: one connection per test class, and a key prefix of
 * each test's own ({@code <family>-<test method>}), deleted before the test (a re-run starts clean) and
 * after it. Register as {@code @RegisterExtension static final KeysPerTest redis = new KeysPerTest("unit-x");}.
 */
public final class KeysPerTest implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final String family;
    private RedisConnection connection;
    private String prefix;

    public KeysPerTest(String family) {
        this.family = family;
    }

    public RedisConnection connection() {
        return connection;
    }

    /** The current test's key prefix. */
    public String prefix() {
        return prefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        connection = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(10));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        connection.close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        prefix = family + "-" + context.getRequiredTestMethod().getName();
        LocalRedis.deleteKeys(prefix);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        LocalRedis.deleteKeys(prefix);
    }
}

package io.github.redisdelaybridge.admin;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdminAuthorizerTest {

    private final AdminAuthorizer withToken = new AdminAuthorizer("s3cret");
    private final AdminAuthorizer withoutToken = new AdminAuthorizer("");

    @Test
    void withATokenOnlyTheRightBearerTokenPassesFromAnywhere() {
        assertThatCode(() -> withToken.check("Bearer s3cret", "192.0.2.2")).doesNotThrowAnyException();
        assertThatCode(() -> withToken.check("bearer   s3cret ", null)).doesNotThrowAnyException();

        assertStatus(() -> withToken.check(null, "127.0.0.1"), 401);
        assertStatus(() -> withToken.check("Bearer ", "127.0.0.1"), 401);
        assertStatus(() -> withToken.check("Bearer s3cre", "127.0.0.1"), 401);
        assertStatus(() -> withToken.check("Bearer s3cret2", "127.0.0.1"), 401);
        assertStatus(() -> withToken.check("Basic czNjcmV0", "127.0.0.1"), 401);
        assertStatus(() -> withToken.check("s3cret", "127.0.0.1"), 401);
    }

    @Test
    void withoutATokenOnlyLoopbackClientsPass() {
        for (String loopback : new String[] {"127.0.0.1", "127.8.9.10", "0:0:0:0:0:0:0:1", "::1", "::ffff:127.0.0.1"}) {
            assertThatCode(() -> withoutToken.check(null, loopback)).as(loopback).doesNotThrowAnyException();
        }
        for (String remote : new String[] {"192.0.2.2", "10.0.0.1", "fd00::2", "0.0.0.0", "localhost", "", "not an address"}) {
            assertStatus(() -> withoutToken.check("Bearer anything", remote), 403);
        }
        assertStatus(() -> withoutToken.check(null, null), 403);
    }

    private static void assertStatus(Runnable check, int status) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(ApiException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.status()).isEqualTo(status));
    }
}

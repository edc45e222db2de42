package io.github.redisdelaybridge.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.admin.AdminAuditLog.Credential;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdminAuthorizerTest {

    private final AdminAuthorizer writeOnly = new AdminAuthorizer("s3cret", "", "0.0.0.0", List.of());
    private final AdminAuthorizer both = new AdminAuthorizer("s3cret", "l00k", "0.0.0.0", List.of());
    private final AdminAuthorizer readOnly = new AdminAuthorizer("", "l00k", "127.0.0.1", List.of());

    @Test
    void withATokenOnlyTheRightBearerTokenPasses() {
        assertThat(writeOnly.check("Bearer s3cret", "GET")).isEqualTo(Credential.WRITE_TOKEN);
        assertThat(writeOnly.check("bearer   s3cret ", "DELETE")).isEqualTo(Credential.WRITE_TOKEN);

        assertStatus(() -> writeOnly.check(null, "GET"), 401);
        assertStatus(() -> writeOnly.check("Bearer ", "GET"), 401);
        assertStatus(() -> writeOnly.check("Bearer s3cre", "GET"), 401);
        assertStatus(() -> writeOnly.check("Bearer s3cret2", "GET"), 401);
        assertStatus(() -> writeOnly.check("Basic czNjcmV0", "GET"), 401);
        assertStatus(() -> writeOnly.check("s3cret", "GET"), 401);
    }

    @Test
    void aTokenIsNeededEvenWhenTheServerListensOnLoopback() {
        AdminAuthorizer onLoopback = new AdminAuthorizer("s3cret", "", "127.0.0.1", List.of());
        assertStatus(() -> onLoopback.check(null, "GET"), 401);
        assertThat(onLoopback.check("Bearer s3cret", "POST")).isEqualTo(Credential.WRITE_TOKEN);
    }

    @Test
    void theReadTokenReadsButNeverWrites() {
        assertThat(both.check("Bearer l00k", "GET")).isEqualTo(Credential.READ_TOKEN);
        assertThat(both.check("Bearer s3cret", "GET")).isEqualTo(Credential.WRITE_TOKEN);
        for (String write : new String[] {"DELETE", "PUT", "POST"}) {
            assertStatus(() -> both.check("Bearer l00k", write), 403);
            assertThat(both.check("Bearer s3cret", write)).isEqualTo(Credential.WRITE_TOKEN);
        }
        // with a read token only, writes have no token that could pass, even on a loopback server
        assertThat(readOnly.check("Bearer l00k", "GET")).isEqualTo(Credential.READ_TOKEN);
        assertStatus(() -> readOnly.check("Bearer l00k", "DELETE"), 403);
        assertStatus(() -> readOnly.check(null, "DELETE"), 401);
    }

    @Test
    void withoutATokenOnlyALoopbackServerAnswers() {
        for (String loopback : new String[] {"127.0.0.1", "127.8.9.10", "0:0:0:0:0:0:0:1", "::1", "[::1]", "localhost"}) {
            AdminAuthorizer open = new AdminAuthorizer("", "", loopback, List.of());
            assertThat(open.check(null, "DELETE")).as(loopback).isEqualTo(Credential.NONE_LOOPBACK_SERVER);
        }
        for (String wide : new String[] {"0.0.0.0", "::", "192.0.2.2", "10.0.0.1", "fd00::2", "bridge.example", "", "not an address"}) {
            AdminAuthorizer closed = new AdminAuthorizer("", "", wide, List.of());
            assertStatus(() -> closed.check(null, "GET"), 403);
            assertStatus(() -> closed.check("Bearer anything", "DELETE"), 403);
        }
        assertStatus(() -> new AdminAuthorizer(null, null, null, List.of()).check(null, "GET"), 403);
    }

    private static void assertStatus(Runnable check, int status) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(status));
    }
}

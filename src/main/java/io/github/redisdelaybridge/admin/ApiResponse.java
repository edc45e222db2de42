package io.github.redisdelaybridge.admin;

/** What an admin API bean answers: a status and a body that becomes JSON (null: no body). */
public record ApiResponse(int status, Object body) {

    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    public static ApiResponse noContent() {
        return new ApiResponse(204, null);
    }
}

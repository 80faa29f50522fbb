package io.gtran.rdma.disni;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips each test of a class that needs RDMA, with {@link RdmaSupport}'s message as the reason,
 * where RDMA is unavailable. A condition rather than an assumption in {@code @BeforeAll}: Surefire
 * reports a class skipped in {@code @BeforeAll} as "Tests run: 0", hiding the reason, and an
 * assumption in {@code @BeforeEach} still runs the shared suites' {@code @AfterEach}, which expects a
 * started cluster. Disabled tests run neither, and are reported one by one as skipped.
 */
final class RdmaAvailable implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("decided per test");
        }
        RdmaSupport.Status status = RdmaSupport.check();
        return status.available() ? ConditionEvaluationResult.enabled(status.message())
                : ConditionEvaluationResult.disabled(status.message());
    }
}

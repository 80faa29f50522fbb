package io.gtran.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClusterSmokeTest {
    @Test
    void writeOnAnotherNodeCommitsAndIsReadFromAThird() throws Exception {
        try (ClusterNodes c = new ClusterNodes(ClusterNodes.IN_JVM, 3)) {
            int label = c.engine(0).store().labels().intern("account");
            int balance = c.engine(0).store().propertyKeys().intern("balance");
            Transaction t = c.begin(0, Isolation.SERIALIZABLE);
            long v = t.addVertex(1, label);
            t.setVertexProperty(v, balance, 100L);
            assertEquals(100L, t.vertexProperty(v, balance));
            t.commit();
            Transaction r = c.begin(2, Isolation.SERIALIZABLE);
            int balance2 = c.engine(2).store().propertyKeys().intern("balance");
            assertEquals(100L, r.vertexProperty(v, balance2));
            r.commit();
            Thread.sleep(200);
            System.out.println(c.leftovers());
        }
    }
}

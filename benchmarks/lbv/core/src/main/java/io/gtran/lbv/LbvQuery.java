package io.gtran.lbv;

/**
 * The LBV queries G-Tran's evaluation draws with equal probability (paper Appendix, Table 4), each
 * run as one transaction. {@code v}, {@code e} are elements drawn from the dataset; names and
 * values are drawn from what exists ({@link ParamSampler}).
 */
public enum LbvQuery {
    /** {@code g.addV(label).property(...)}: a new vertex with properties. */
    Q2(Category.CREATE),
    /** {@code addE(l)} from v1 to v2, no properties. */
    Q3(Category.CREATE),
    /** {@code addE(l)} from v1 to v2 with properties. */
    Q4(Category.CREATE),
    /** Set a new property (a name the vertex does not have) on v. */
    Q5(Category.CREATE),
    /** Set a new property on e. */
    Q6(Category.CREATE),
    /** A new vertex, then edges from it to existing vertices. */
    Q7(Category.CREATE),
    /** {@code g.V().has(name, value)} on an indexed vertex key. */
    Q11(Category.READ),
    /** {@code g.E().has(name, value)} on an indexed edge key. */
    Q12(Category.READ),
    /** {@code g.E().hasLabel(l)}, counted (a label scan). */
    Q13(Category.READ),
    /** {@code g.V(id)} with its properties. */
    Q14(Category.READ),
    /** {@code g.E(id)} with its properties. */
    Q15(Category.READ),
    /** Update an existing property of v. */
    Q16(Category.UPDATE),
    /** Update an existing property of e. */
    Q17(Category.UPDATE),
    /** Remove vertex v (and its edges). */
    Q18(Category.DELETE),
    /** Remove edge e. */
    Q19(Category.DELETE),
    /** Remove a property of v. */
    Q20(Category.DELETE),
    /** Remove a property of e. */
    Q21(Category.DELETE),
    /** {@code v.in()}. */
    Q22(Category.TRAVERSAL),
    /** {@code v.out()}. */
    Q23(Category.TRAVERSAL),
    /** {@code v.both(l)}. */
    Q24(Category.TRAVERSAL),
    /** {@code v.inE().label().dedup()}. */
    Q25(Category.TRAVERSAL),
    /** {@code v.outE().label().dedup()}. */
    Q26(Category.TRAVERSAL),
    /** {@code v.bothE().label().dedup()}. */
    Q27(Category.TRAVERSAL);

    private final Category category;

    LbvQuery(Category category) {
        this.category = category;
    }

    public Category category() {
        return category;
    }
}

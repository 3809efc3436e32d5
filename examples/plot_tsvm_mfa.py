"""
====================================================================
Transductive SVM and mean field annealing against a labeled-only SVM
====================================================================

The semi-supervised methods of Sindhwani & Keerthi (2006) rely on the cluster
assumption: the decision boundary should pass through a low-density region of all the
data, labeled or not. With only a handful of labels, an SVM trained on the labeled
samples alone puts its boundary wherever those few points allow; the transductive SVM
(:class:`l2svm_mfn.TSVMClassifier`, multiple switching) and mean field annealing
(:class:`l2svm_mfn.MFAClassifier`) also use the unlabeled samples and move the boundary
into the gap between the clusters.

Labels follow scikit-learn's convention (``sklearn.semi_supervised``): the classes are
0 and 1 and ``-1`` marks an unlabeled sample. Since the label set {-1, 0, 1} is also
what SVMlin's convention (classes -1/+1, 0 unlabeled) looks like, the estimators refuse
it unless ``unlabeled_value=-1`` states which reading is meant.
"""

# %%
# A cluster-assumption set with four labels
# -----------------------------------------
# Two elongated Gaussian clusters separated by a gap; two labels per class out of 2,000
# samples, drawn at random. With so few labels the labeled-only SVM's boundary follows
# the four points, not the gap.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import LinearSVC

from l2svm_mfn import MFAClassifier, TSVMClassifier

rng = np.random.default_rng(5)
n = 1000
stretch = np.array([[3.0, 0.0], [0.0, 0.5]])
X = np.vstack(
    [rng.normal(size=(n, 2)) @ stretch + [0.0, 1.5], rng.normal(size=(n, 2)) @ stretch - [0, 1.5]]
)
y_true = np.repeat([0, 1], n)

labeled = np.r_[rng.choice(n, 2, replace=False), n + rng.choice(n, 2, replace=False)]
y = np.full(len(X), -1)
y[labeled] = y_true[labeled]

svm = LinearSVC(C=1.0).fit(X[labeled], y[labeled])
tsvm = TSVMClassifier(unlabeled_value=-1, positive_fraction=0.5).fit(X, y)
mfa = MFAClassifier(unlabeled_value=-1, positive_fraction=0.5).fit(X, y)

unlabeled = y == -1
for name, model in [("labeled-only SVM", svm), ("TSVM", tsvm), ("MFA", mfa)]:
    accuracy = np.mean(model.predict(X[unlabeled]) == y_true[unlabeled])
    print(f"{name:>16}: accuracy on the unlabeled samples {accuracy:.3f}")

# %%
# The boundaries
# --------------
# ``positive_fraction=0.5`` tells the semi-supervised methods that half of the
# unlabeled samples belong to each class (by default they estimate it from the labels).
# Both objectives are non-convex: on other draws of the labels TSVM's label switching can
# stop in a worse local minimum (MFA's annealing is meant to avoid such minima), so try
# a few seeds before drawing conclusions from one plot.
fig, ax = plt.subplots(figsize=(8, 5))
ax.scatter(*X[unlabeled].T, c="lightgrey", s=6, label="unlabeled")
ax.scatter(*X[labeled].T, c=y[labeled], cmap="coolwarm", s=90, edgecolors="k", label="labeled")
xs = np.linspace(X[:, 0].min(), X[:, 0].max(), 2)
styles = [(svm, "k-", "labeled-only LinearSVC"), (tsvm, "g--", "TSVM"), (mfa, "m:", "MFA")]
for model, style, name in styles:
    (w0, w1), b = np.ravel(model.coef_), np.ravel(model.intercept_)[0]
    ax.plot(xs, -(w0 * xs + b) / w1, style, linewidth=2, label=name)
ax.set_ylim(X[:, 1].min(), X[:, 1].max())
ax.legend(loc="lower left", fontsize="small")
ax.set_title("linear boundaries with 4 labels and 1,996 unlabeled samples")
fig.tight_layout()
plt.show()

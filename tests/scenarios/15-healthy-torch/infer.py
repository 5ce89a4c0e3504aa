"""A healthy PyTorch inference: one small Linear layer, one forward pass."""
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
model.eval()
with torch.no_grad():
    out = model(torch.ones(1, 4))
print("inference ok, output shape %s" % (tuple(out.shape),))

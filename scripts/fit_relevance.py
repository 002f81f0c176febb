#!/usr/bin/env python3
# Fit the no-reference relevance model (src/scoring/relevance.rs) on `ivd eval --dump FILE` items
# (their `unreferenced` evidence), fitting half; prints weights and both halves at several cuts.
# Usage: python3 scripts/fit_relevance.py DUMP [feature indices; the model in relevance.rs is 1,4,5]
import json,sys,math
items=[json.loads(l) for l in open(sys.argv[1])]
POS={'paraphrase-answer','out-of-base-good','out-of-base-weak','near-miss-good','near-miss-weak','choice-right'}
NEG={'out-of-base-off-topic','out-of-base-moved','choice-moved'}
rows=[]
for it in items:
    u=it.get('unreferenced')
    if not u or u.get('fit') is None: continue
    st=it['set']
    if st in POS: y=1
    elif st in NEG: y=0
    else: continue
    r=u['asked_rank']; 
    x=[max(-6,min(6,u['fit'])), max(-6,min(6,u['asked_z'])), 1.0 if r<=1 else 0.0, 1.0 if r<=3 else 0.0, u['terms'] or 0.0, max(-6,min(6,u.get('neighbour_z') or 0))]
    rows.append((it['test'],y,x,st))
names=['fit','asked_z','top1','top3','terms','nz']
for st in sorted(POS|NEG):
    xs=[r[2] for r in rows if r[3]==st and not r[0]]
    if not xs: continue
    print(st,len(xs),' '.join('%s p25 %.2f p50 %.2f p75 %.2f'%(n,sorted(x[i] for x in xs)[len(xs)//4],sorted(x[i] for x in xs)[len(xs)//2],sorted(x[i] for x in xs)[3*len(xs)//4]) for i,n in enumerate(names)))
use=[int(a) for a in sys.argv[2].split(',')] if len(sys.argv)>2 else list(range(len(names)))
fit=[r for r in rows if not r[0]]; test=[r for r in rows if r[0]]
w=[0.0]*(len(use)+1)
pos=sum(r[1] for r in fit); neg=len(fit)-pos
def z(r): return [1.0]+[r[2][i] for i in use]
for ep in range(5000):
    g=[0.0]*len(w)
    for r in fit:
        x=z(r); p=1/(1+math.exp(-sum(a*b for a,b in zip(w,x))))
        wt=0.5/pos if r[1] else 0.5/neg
        for j in range(len(w)): g[j]+=wt*(p-r[1])*x[j]
    for j in range(len(w)): w[j]-=0.5*(g[j]+1e-3*w[j]*(j>0))
print('weights', ' '.join('%s=%.3f'%(n,v) for n,v in zip(['bias']+[names[i] for i in use],w)))
def prob(r): x=z(r); return 1/(1+math.exp(-sum(a*b for a,b in zip(w,x))))
for part,sel in (('fit',fit),('test',test)):
    for t in (0.2,0.25,0.3,0.35,0.4,0.5):
        out=[]
        for st in sorted(POS|NEG):
            s=[r for r in sel if r[3]==st]
            if not s: continue
            acc=sum(1 for r in s if (prob(r)>=t)==bool(r[1]))
            out.append('%s %d/%d'%(st.replace('out-of-base','oob'),acc,len(s)))
        print(part,'t=%.2f'%t,' '.join(out))

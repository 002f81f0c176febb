#!/usr/bin/env python3
# Fit the same-question model (src/scoring/matching.rs) on `ivd eval --dump FILE` items of the
# fitting half; prints feature distributions, weights and both halves at several cuts.
# Usage: python3 scripts/fit_match.py DUMP [feature indices, e.g. 0,2,3,4,5,6]
import json,sys,math,random
items=[json.loads(l) for l in open(sys.argv[1])]
items=[i for i in items if 'set' in i and i.get('hits') is not None]
def feats(hits,k):
    h=hits[k]
    s=h.get('similarity') or 0; f=h.get('answer_fit'); f=0 if f is None else f
    others_s=[x.get('similarity') or 0 for j,x in enumerate(hits) if j!=k]
    others_f=[(x.get('answer_fit') or 0) for j,x in enumerate(hits) if j!=k]
    if h.get('runner_up') is not None: others_s.append(h['runner_up'])
    ms=s-max(others_s) if others_s else 0.05
    mf=f-max(others_f) if others_f else 1.0
    return [s,h['precision'],h['relevance'],f,ms,mf,1.0 if k==0 else 0.0]
rows=[]  # (test, label, feats, set, key)
seen=set()
for it in items:
    st=it['set']; hits=it['hits'] or []
    q=it['question']
    if (st,q) in seen: continue
    seen.add((st,q))
    for k,h in enumerate(hits):
        if st in ('kb-paraphrase','paraphrase','choice-right'):
            lab=1 if h['id']==it['entry'] else 0
        elif st=='near-miss-good':
            if h['id']!=it['entry']: continue
            lab=0
        elif st=='out-of-base-good':
            lab=0
        else: continue
        rows.append((it['test'],lab,feats(hits,k),st,q,h['id']))
names=['sim','prec','rel','fit','sim_margin','fit_margin','first']
def stats(sel):
    for lab in (1,0):
        xs=[r[2] for r in sel if r[1]==lab]
        print(' label',lab,'n',len(xs))
        for i,n in enumerate(names):
            v=sorted(x[i] for x in xs)
            if v: print('   %-11s p10 %.3f p25 %.3f p50 %.3f p75 %.3f p90 %.3f'%(n,v[len(v)//10],v[len(v)//4],v[len(v)//2],v[3*len(v)//4],v[9*len(v)//10]))
fit=[r for r in rows if not r[0]]; test=[r for r in rows if r[0]]
print('FIT'); stats(fit)
# logistic regression
use=[int(x) for x in (sys.argv[2].split(',') if len(sys.argv)>2 else range(len(names)))]
def X(r): return [1.0]+[r[2][i] for i in use]
mu=[0]+[sum(r[2][i] for r in fit)/len(fit) for i in use]
sd=[1]+[max(1e-6,math.sqrt(sum((r[2][i]-mu[j+1])**2 for r in fit)/len(fit))) for j,i in enumerate(use)]
def Z(r): x=X(r); return [1.0]+[(x[j]-mu[j])/sd[j] for j in range(1,len(x))]
w=[0.0]*(len(use)+1)
pos=sum(r[1] for r in fit); neg=len(fit)-pos
for ep in range(3000):
    g=[0.0]*len(w)
    for r in fit:
        z=Z(r); p=1/(1+math.exp(-sum(a*b for a,b in zip(w,z))))
        wt=0.5/pos if r[1] else 0.5/neg
        for j in range(len(w)): g[j]+=wt*(p-r[1])*z[j]
    for j in range(len(w)): w[j]-=1.0*(g[j]+1e-3*w[j]*(j>0))
# unstandardize
raw=[w[0]-sum(w[j]*mu[j]/sd[j] for j in range(1,len(w)))]+[w[j]/sd[j] for j in range(1,len(w))]
print('weights (raw):',' '.join('%s=%.4f'%(n,v) for n,v in zip(['bias']+[names[i] for i in use],raw)))
def prob(r): x=X(r); return 1/(1+math.exp(-sum(a*b for a,b in zip(raw,x))))
for part,sel in (('fit',fit),('test',test)):
    for t in (0.3,0.4,0.5,0.6,0.7):
        tp=sum(1 for r in sel if r[1] and prob(r)>=t); P=sum(1 for r in sel if r[1])
        fp={}
        for st in ('near-miss-good','out-of-base-good','paraphrase','kb-paraphrase','choice-right'):
            n=[r for r in sel if not r[1] and r[3]==st]
            fp[st]=(sum(1 for r in n if prob(r)>=t),len(n))
        print(part,'t=%.1f recall %d/%d=%.2f'%(t,tp,P,tp/max(P,1)),' FP:',' '.join('%s %d/%d'%(k,a,b) for k,(a,b) in fp.items()))
